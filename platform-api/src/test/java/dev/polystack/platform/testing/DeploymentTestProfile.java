package dev.polystack.platform.testing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** Short leases and a fast sweeper, so that lost runners show up within seconds; no scheduled checks. */
public class DeploymentTestProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // checks and reconciles are started by the tests themselves, never by a scheduler tick in between
        return Map.of(
                "polystack.jobs.lease",
                "5s",
                "polystack.jobs.sweep-interval",
                "1s",
                "polystack.checks.schedule-interval",
                "1h");
    }
}
