package dev.polystack.platform.issue;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.polystack.platform.common.problem.PlatformException;

/** What kind of deviation an issue is. */
public enum IssueKind {
    /** Changed outside Polystack; applying the last configuration again would change it back in place. */
    DRIFT("drift"),
    /** Changed outside Polystack, and putting it back needs a delete or a replace. */
    DESTRUCTIVE_DRIFT("destructive-drift"),
    /** The check itself failed (its diagnostic is the detail). */
    CHECK_FAILED("check-failed"),
    /** The last deployment that applied the resource failed it. */
    APPLY_FAILED("apply-failed"),
    RUNNER_UNAVAILABLE("runner-unavailable"),
    MODULE_OUTDATED("module-outdated");

    private final String wireName;

    IssueKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static IssueKind fromWire(String value, String parameter) {
        for (IssueKind kind : values()) {
            if (kind.wireName.equals(value)) {
                return kind;
            }
        }
        throw PlatformException.invalid(
                parameter,
                "must be one of drift, destructive-drift, check-failed, apply-failed,"
                        + " runner-unavailable, module-outdated");
    }
}
