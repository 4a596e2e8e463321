package io.vitals.internal.settings;

import io.vitals.MeasureResources;
import io.vitals.tensorflow.TensorFlowContainer;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The {@code vitals.*} key constants of the public classes that declare keys, for tests. */
public final class SettingKeys {

    /**
     * The classes that declare keys: the extension's settings on {@link MeasureResources}, and the system
     * properties of {@link TensorFlowContainer}, which reads them itself, with or without the extension.
     */
    public static final List<Class<?>> DECLARING = List.of(MeasureResources.class, TensorFlowContainer.class);

    private SettingKeys() {
    }

    /** Every key, of every declaring class. */
    public static Set<String> all() {
        return DECLARING.stream().flatMap(type -> constants(type).values().stream()).collect(Collectors.toSet());
    }

    /** The public static String constants of {@code type} whose value starts with "vitals.", by name. */
    public static Map<String, String> constants(Class<?> type) {
        Map<String, String> constants = new TreeMap<>();
        for (Field field : type.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isPublic(modifiers)) {
                try {
                    String value = (String) field.get(null);
                    if (value.startsWith("vitals.")) {
                        constants.put(field.getName(), value);
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError("cannot read " + field, e);
                }
            }
        }
        return constants;
    }
}
