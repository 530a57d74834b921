package dev.polystack.platform.testing;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/** What a runner sends to a resource's OpenTofu HTTP state backend, from the {@code state} block of a claimed job. */
public final class StateCalls {

    private StateCalls() {}

    /** The job's own state credentials, as OpenTofu sends them (basic authentication). */
    public static String basic(Map<String, Object> state) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (state.get("username") + ":" + state.get("password")).getBytes(StandardCharsets.UTF_8));
    }

    /** The path of the state's address (the test client adds the host). */
    public static String path(Object address) {
        return URI.create(address.toString()).getPath();
    }

    /** The lock information OpenTofu sends with {@code LOCK} and {@code UNLOCK}. */
    public static String lockInfo(String id) {
        return "{\"ID\":\"" + id + "\",\"Operation\":\"OperationTypeApply\",\"Info\":\"\",\"Who\":\"runner@test\","
                + "\"Version\":\"1.8.0\",\"Created\":\"2026-11-29T12:00:00Z\",\"Path\":\"\"}";
    }
}
