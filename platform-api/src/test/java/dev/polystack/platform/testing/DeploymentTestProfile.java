package dev.polystack.platform.testing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** Short leases and a fast sweeper, so that lost runners show up within seconds. */
public class DeploymentTestProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("polystack.jobs.lease", "5s", "polystack.jobs.sweep-interval", "1s");
    }
}
