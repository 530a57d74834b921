package dev.polystack.platform.deployment.logs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How long deployment logs are kept ({@code POLYSTACK_DEPLOYMENT_LOGS_RETENTION=90d}, ...). */
@ConfigMapping(prefix = "polystack.deployment-logs")
public interface LogSettings {

    /** How long the logs of a deployment are kept after it ended; {@code 0} keeps them for ever. */
    @WithDefault("90d")
    Duration retention();

    /** How often the cleanup looks for logs older than the retention. */
    @WithDefault("1h")
    Duration cleanupInterval();

    /** The retention as people say it: "90 days", "36 hours". */
    static String describe(Duration retention) {
        if (retention.toHours() % 24 == 0 && retention.toDays() > 0) {
            return retention.toDays() + (retention.toDays() == 1 ? " day" : " days");
        }
        if (retention.toMinutes() % 60 == 0 && retention.toHours() > 0) {
            return retention.toHours() + (retention.toHours() == 1 ? " hour" : " hours");
        }
        return retention.toSeconds() + " seconds";
    }
}
