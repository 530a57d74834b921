package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * When an environment is checked for drift without being asked. In an update, an absent schedule leaves the
 * stored one as it is, and {@code {}} removes it (an environment then follows its type's again).
 *
 * @param intervalMinutes how long after the environment's last deployment or check the next check runs; 0 or
 *                        absent is off, otherwise at least 10 (at most a week)
 * @param window          {@code HH:MM-HH:MM} in UTC, the hours in which scheduled checks may start (may wrap
 *                        midnight, e.g. {@code 22:00-06:00}); absent is any time
 * @param refreshOnly     plan with {@code -refresh-only}
 */
@Schema(name = "CheckSchedule")
public record CheckSchedule(
        @Min(0) @Max(10_080) Integer intervalMinutes,

        @Pattern(
                regexp = "([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d",
                message = "must be HH:MM-HH:MM in UTC, such as 22:00-06:00")
        String window,

        Boolean refreshOnly) {

    /** The shortest interval: a check plans every resource of the environment. */
    public static final int MIN_INTERVAL = 10;

    /**
     * SQL: an environment's effective interval in minutes (its own schedule's, else its type's; null when neither has
     * one), in a query that names the environment {@code e} and its type {@code t}.
     */
    public static final String INTERVAL_SQL = "(coalesce(e.checks, t.checks) ->> 'interval_minutes')::int";

    /**
     * SQL: an environment's effective schedule is on ({@link #enabled}), with the names of {@link #INTERVAL_SQL}.
     * The scheduler's look and the engine's diagnostics share it, so "on" means one thing.
     */
    public static final String ENABLED_SQL = "coalesce(" + INTERVAL_SQL + ", 0) >= " + MIN_INTERVAL;

    /** Refuses an interval between 1 and 9 minutes; {@code pointer} names the field (e.g. {@code /checks}). */
    public void validate(String pointer) {
        if (intervalMinutes != null && intervalMinutes > 0 && intervalMinutes < MIN_INTERVAL) {
            throw PlatformException.invalid(
                    pointer + "/interval_minutes", "must be 0 (off) or at least " + MIN_INTERVAL + " minutes");
        }
    }

    /** {@code {}}: on an environment, follow its type's schedule again; on a type, no schedule. */
    @JsonIgnore
    public boolean isEmpty() {
        return intervalMinutes == null && window == null && refreshOnly == null;
    }

    public boolean enabled() {
        return intervalMinutes != null && intervalMinutes >= MIN_INTERVAL;
    }

    /** Whether a scheduled check may start at {@code now}. */
    public boolean allows(Instant now) {
        if (window == null) {
            return true;
        }
        LocalTime time = LocalTime.ofInstant(now, ZoneOffset.UTC);
        LocalTime from = LocalTime.parse(window.substring(0, 5));
        LocalTime to = LocalTime.parse(window.substring(6));
        if (from.equals(to)) {
            return true;
        }
        if (from.isBefore(to)) {
            return !time.isBefore(from) && time.isBefore(to);
        }
        return !time.isBefore(from) || time.isBefore(to); // wraps midnight
    }

    /** As stored (a jsonb column), with the API's names. */
    public JsonNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("interval_minutes", intervalMinutes == null ? 0 : intervalMinutes);
        if (window != null) {
            json.put("window", window);
        }
        json.put("refresh_only", Boolean.TRUE.equals(refreshOnly));
        return json;
    }

    public static CheckSchedule fromJson(JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            return null;
        }
        return new CheckSchedule(
                json.path("interval_minutes").asInt(0),
                json.path("window").isTextual() ? json.path("window").asText() : null,
                json.path("refresh_only").asBoolean(false));
    }
}
