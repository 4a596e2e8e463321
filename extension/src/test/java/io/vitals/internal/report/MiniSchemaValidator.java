package io.vitals.internal.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Validates JSON against the subset of JSON Schema 2020-12 the Vitals schemas use: {@code $ref} to {@code $defs},
 * {@code type} (one or several), {@code required}, {@code properties}, {@code additionalProperties: false},
 * {@code items}, {@code enum}, {@code const} and {@code minimum}. A keyword outside the subset fails validation,
 * so the schema cannot quietly grow past what this checks.
 */
public final class MiniSchemaValidator {

    private static final Set<String> KNOWN = Set.of("$schema", "$id", "$ref", "$defs", "title", "description", "type",
            "required", "properties", "additionalProperties", "items", "enum", "const", "minimum", "format");

    private final JsonNode root;

    MiniSchemaValidator(JsonNode root) {
        this.root = root;
    }

    public List<String> validate(JsonNode instance) {
        List<String> errors = new ArrayList<>();
        check(root, instance, "$", errors);
        return errors;
    }

    private void check(JsonNode schema, JsonNode value, String path, List<String> errors) {
        for (Iterator<String> it = schema.fieldNames(); it.hasNext();) {
            String keyword = it.next();
            if (!KNOWN.contains(keyword)) {
                errors.add(path + ": unsupported schema keyword " + keyword);
            }
        }
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            check(root.at(ref.substring(1)), value, path, errors);
        }
        if (schema.has("type")) {
            Set<String> types = new HashSet<>();
            if (schema.get("type").isArray()) {
                schema.get("type").forEach(t -> types.add(t.asText()));
            } else {
                types.add(schema.get("type").asText());
            }
            if (types.stream().noneMatch(t -> hasType(value, t))) {
                errors.add(path + ": expected " + types + " but was " + value.getNodeType());
                return;
            }
        }
        if (schema.has("const") && !schema.get("const").equals(value)) {
            errors.add(path + ": expected " + schema.get("const") + " but was " + value);
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode option : schema.get("enum")) {
                found |= option.equals(value);
            }
            if (!found) {
                errors.add(path + ": " + value + " not in " + schema.get("enum"));
            }
        }
        if (schema.has("minimum") && value.isNumber() && value.asDouble() < schema.get("minimum").asDouble()) {
            errors.add(path + ": " + value + " below minimum " + schema.get("minimum"));
        }
        if (value.isObject()) {
            if (schema.has("required")) {
                for (JsonNode name : schema.get("required")) {
                    if (!value.has(name.asText())) {
                        errors.add(path + ": missing required " + name.asText());
                    }
                }
            }
            JsonNode properties = schema.path("properties");
            for (Iterator<String> it = value.fieldNames(); it.hasNext();) {
                String name = it.next();
                if (properties.has(name)) {
                    check(properties.get(name), value.get(name), path + "." + name, errors);
                } else if (schema.has("additionalProperties") && !schema.get("additionalProperties").asBoolean()) {
                    errors.add(path + ": unexpected property " + name);
                }
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(schema.get("items"), value.get(i), path + "[" + i + "]", errors);
            }
        }
    }

    private static boolean hasType(JsonNode value, String type) {
        switch (type) {
            case "object": return value.isObject();
            case "array": return value.isArray();
            case "string": return value.isTextual();
            case "integer": return value.isIntegralNumber() || value.isNumber() && value.asDouble() == Math.rint(value.asDouble());
            case "number": return value.isNumber();
            case "boolean": return value.isBoolean();
            case "null": return value.isNull();
            default: throw new IllegalArgumentException("unknown type " + type);
        }
    }
}
