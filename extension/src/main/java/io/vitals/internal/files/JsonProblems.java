package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;

import org.apiguardian.api.API;

/** Jackson's parse errors worded for a message that already names the file. */
@API(status = INTERNAL, since = "0.1")
public final class JsonProblems {

    // "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 3, column: 12]"
    private static final Pattern SOURCE = Pattern.compile("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]");

    private JsonProblems() {
    }

    /**
     * What is wrong, without Jackson's source description: e.g. {@code Unexpected end-of-input: expected close
     * marker for Object (start marker at line 1, column 1)}.
     */
    public static String reason(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        return SOURCE.matcher(message == null ? e.getClass().getSimpleName() : message)
                .replaceAll("line $1, column $2");
    }
}
