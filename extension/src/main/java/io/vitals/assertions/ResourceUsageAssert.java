package io.vitals.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.ResourceUsage;

import org.apiguardian.api.API;

/** Assertions on a {@link ResourceUsage}; obtain one from {@link VitalsAssertions#assertThat(ResourceUsage)}. */
@API(status = EXPERIMENTAL, since = "0.1")
public class ResourceUsageAssert extends AbstractResourceUsageAssert<ResourceUsageAssert> {

    /**
     * Public for {@link VitalsSoftAssertions}' proxies; prefer {@link VitalsAssertions#assertThat(ResourceUsage)}.
     *
     * @param actual the usage to check
     */
    public ResourceUsageAssert(ResourceUsage actual) {
        super(actual, ResourceUsageAssert.class);
    }
}
