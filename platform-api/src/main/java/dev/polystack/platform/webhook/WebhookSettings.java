package dev.polystack.platform.webhook;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How webhooks are delivered ({@code POLYSTACK_WEBHOOKS_…}). */
@ConfigMapping(prefix = "polystack.webhooks")
public interface WebhookSettings {

    /**
     * Whether subscriptions may point at loopback, link-local, private or unique-local addresses. Off: an
     * organization's administrator cannot make the control plane call into the network it runs in.
     */
    @WithDefault("false")
    boolean allowPrivateNetworks();

    /** How often each replica looks for deliveries that are due. */
    @WithDefault("2s")
    Duration dispatchInterval();

    /** The first retry waits this long; each later one twice as long as the one before, up to an hour. */
    @WithDefault("10s")
    Duration retryDelay();

    /** Attempts before a delivery is given up as failed. */
    @WithDefault("8")
    int maxAttempts();

    /** How long one delivery may take (connect and answer). */
    @WithDefault("10s")
    Duration timeout();
}
