package dev.polystack.platform.webhook;

import dev.polystack.platform.testing.DeploymentTestProfile;

import java.util.HashMap;
import java.util.Map;

/** Deliveries to a receiver on loopback, sent when the test asks (no dispatcher tick in between), retried at once. */
public class WebhookTestProfile extends DeploymentTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("polystack.webhooks.allow-private-networks", "true");
        overrides.put("polystack.webhooks.dispatch-interval", "1h");
        overrides.put("polystack.webhooks.retry-delay", "0s");
        overrides.put("polystack.webhooks.timeout", "2s");
        overrides.put("polystack.webhooks.max-attempts", "3");
        return overrides;
    }
}
