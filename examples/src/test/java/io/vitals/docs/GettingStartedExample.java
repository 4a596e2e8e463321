package io.vitals.docs;

// tag::imports[]
import static io.vitals.assertions.VitalsAssertions.assertThat; // ResourceUsage: Vitals' assertions
import static org.assertj.core.api.Assertions.assertThat;       // everything else: AssertJ's

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.tensorflow.TensorFlowContainer;
import io.vitals.tensorflow.TrainingResult;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
// end::imports[]

/**
 * The test class of docs/getting-started.md. Named without the IT/Tests suffix so that neither Surefire nor Failsafe
 * runs it by accident (one of its tests fails on purpose); run it on demand with
 * {@code mvn -pl examples verify -Dit.test=GettingStartedExample -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
// tag::first-test[]
@MeasureResources
class GettingStartedExample {

    @Container
    static TensorFlowContainer tf = new TensorFlowContainer().withMemoryLimit("2GiB").withCpuLimit(2.0);

    @Test
    void trainsOneEpoch(ResourceMonitor monitor) throws Exception {
        TrainingResult result = tf.train("--epochs", "1");

        System.out.println("final loss " + result.finalLoss().orElseThrow()
                + ", peak memory " + monitor.usage().peakMemory());
    }
    // end::first-test[]

    // tag::tight-budget[]
    @Test
    @ResourceBudget(peakMemory = "64MiB", cpuTime = "500ms")
    void trainsWithinATightBudget() throws Exception {
        tf.train("--epochs", "1");
    }
    // end::tight-budget[]

    // tag::fitting-budget[]
    @Test
    @ResourceBudget(peakMemory = "512MiB", cpuTime = "10s", peakPids = "64")
    void trainsWithinItsBudget(ResourceMonitor monitor) throws Exception {
        tf.train("--epochs", "1");

        assertThat(monitor.usage()).wasNotOomKilled();
    }
    // end::fitting-budget[]
// tag::first-test[]
}
// end::first-test[]
