package dev.polystack.platform.testing;

import io.restassured.response.Response;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import static io.restassured.RestAssured.given;

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

    /** {@code LOCK} of the state at {@code address}, as OpenTofu sends it with the job's credentials {@code auth}. */
    public static Response lock(String address, String auth, String id) {
        return given().header("Authorization", auth).body(lockInfo(id)).request("LOCK", address);
    }

    /** The lock information OpenTofu sends with {@code LOCK} and {@code UNLOCK}. */
    public static String lockInfo(String id) {
        return "{\"ID\":\"" + id + "\",\"Operation\":\"OperationTypeApply\",\"Info\":\"\",\"Who\":\"runner@test\","
                + "\"Version\":\"1.8.0\",\"Created\":\"2026-11-29T12:00:00Z\",\"Path\":\"\"}";
    }
}
