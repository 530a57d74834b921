package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.StateCalls;
import io.restassured.response.Response;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The state side of {@link EngineModelTest}: its runner writes each resource's state as OpenTofu does, and after
 * every step the serials stored must not have gone back.
 */
final class ModelState {

    private final String org;
    private final List<String> resources;
    /** The highest state serial seen stored for each resource. */
    private final Map<String, Long> serials = new TreeMap<>();
    /** State writes the control plane accepted. */
    private int writes;

    ModelState(String org, List<String> resources) {
        this.org = org;
        this.resources = resources;
    }

    int writes() {
        return writes;
    }

    /**
     * What OpenTofu does with the state around an apply or a destroy, with the job's own credentials: reads it,
     * locks it, writes the next serial (a destroy leaves no resources in it) and unlocks it. A job that lost its
     * lease meanwhile is refused (401) and writes nothing; its result will be refused too.
     */
    void write(Map<String, Object> job) {
        String operation = job.get("operation").toString();
        if (!operation.equals("apply") && !operation.equals("destroy")) {
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        String auth = StateCalls.basic(state);
        String address = StateCalls.path(state.get("address"));
        String resource = RunnerDriver.resourceOf(job);
        Response current = given().header("Authorization", auth).get(address);
        if (current.statusCode() == 401) {
            return;
        }
        assertThat(current.statusCode())
                .as(() -> "read the state of " + resource)
                .isIn(200, 204);
        long serial = current.statusCode() == 200 ? current.jsonPath().getLong("serial") : 0;
        String lock = UUID.randomUUID().toString();
        int locked = given().header("Authorization", auth)
                .body(StateCalls.lockInfo(lock))
                .request("LOCK", address)
                .statusCode();
        if (locked == 401) {
            return;
        }
        assertThat(locked)
                .as(() -> "lock the state of " + resource + " for " + operation + " job " + job.get("job_id"))
                .isEqualTo(200);
        String resources = operation.equals("destroy")
                ? "[]"
                : "[{\"mode\":\"managed\",\"type\":\"terraform_data\",\"name\":\"this\",\"instances\":[]}]";
        int written = given().header("Authorization", auth)
                .contentType("application/json")
                .body("{\"version\":4,\"terraform_version\":\"1.11.0\",\"serial\":" + (serial + 1) + ",\"lineage\":\""
                        + LINEAGE + "\",\"outputs\":{},\"resources\":" + resources + "}")
                .queryParam("ID", lock)
                .post(address)
                .statusCode();
        if (written == 401) {
            return;
        }
        assertThat(written)
                .as(() -> "write serial " + (serial + 1) + " of " + resource)
                .isEqualTo(200);
        writes++;
        int unlocked = given().header("Authorization", auth)
                .body(StateCalls.lockInfo(lock))
                .request("UNLOCK", address)
                .statusCode();
        assertThat(unlocked).as(() -> "unlock the state of " + resource).isIn(200, 401);
    }

    /** A job whose lease expired: the state of an apply or a destroy no longer opens to its credentials. */
    void refusedAfterLease(Map<String, Object> job, String what) {
        String operation = job.get("operation").toString();
        if (!operation.equals("apply") && !operation.equals("destroy")) {
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        int read = given().header("Authorization", StateCalls.basic(state))
                .get(StateCalls.path(state.get("address")))
                .statusCode();
        assertThat(read)
                .as(() -> "the state credentials of " + what + ", whose lease expired")
                .isEqualTo(401);
    }

    /** One lineage for every resource's state: each resource has a state of its own. */
    private static final String LINEAGE = "6a0c1f44-0000-4000-8000-00000000e0de";

    /** The state serials stored for each resource never go back, newest version first. */
    void serialsOnlyGrow(String where, String history) {
        for (String resource : resources) {
            List<Long> stored = admin().queryParam("limit", 500)
                    .get("/api/v1/orgs/{org}/projects/shop/envs/prod/state/thing/default/{id}/versions", org, resource)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("items.serial", Long.class);
            if (stored.isEmpty()) {
                assertThat(serials)
                        .as(() -> where + ": the state of " + resource + " vanished\n" + history)
                        .doesNotContainKey(resource);
                continue;
            }
            assertThat(stored)
                    .as(() -> where + ": the state versions of " + resource + ", newest first\n" + history)
                    .isSortedAccordingTo(Comparator.reverseOrder());
            long newest = stored.get(0);
            assertThat(newest)
                    .as(() -> where + ": the newest state serial of " + resource + " against the highest seen\n"
                            + history)
                    .isGreaterThanOrEqualTo(serials.getOrDefault(resource, 0L));
            serials.put(resource, newest);
        }
    }
}
