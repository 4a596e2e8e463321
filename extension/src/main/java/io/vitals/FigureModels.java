package io.vitals;

import java.util.ServiceLoader;

/** The {@link FigureModel}, loaded on first use and never changed: a service lookup's result, not state. */
final class FigureModels {

    static final FigureModel MODEL = ServiceLoader.load(FigureModel.class, FigureModel.class.getClassLoader())
            .findFirst().orElseThrow(() -> new IllegalStateException("No implementation of "
                    + FigureModel.class.getName() + " on the class path: Vitals' jar declares one in "
                    + "META-INF/services/" + FigureModel.class.getName() + "; is the jar incomplete?"));

    private FigureModels() {
    }
}
