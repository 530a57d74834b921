package dev.polystack.platform.testing;

import java.util.List;
import java.util.Map;

/** What a runner reports for one resource at the end of a check job ({@code check} in its result). */
public final class CheckReports {

    /** Nothing changed outside OpenTofu, nothing to apply. */
    public static final Map<String, Object> CLEAN = Map.of("drifted", false, "changes_pending", false);

    /** The resource was changed outside OpenTofu: one attribute, which an apply puts back in place. */
    public static final Map<String, Object> IN_PLACE = Map.of(
            "drifted",
            true,
            "changes_pending",
            true,
            "drift",
            List.of(Map.of(
                    "address",
                    "module.main.terraform_data.this",
                    "actions",
                    List.of("update"),
                    "attributes",
                    List.of(Map.of("path", "input", "before", "x", "after", "y")))),
            "changes",
            List.of(Map.of("address", "module.main.terraform_data.this", "actions", List.of("update"))));

    /**
     * A configuration that would change the resource, and putting it back replaces it (delete, then create):
     * destructive drift, whose fix never applies unattended.
     */
    public static final Map<String, Object> REPLACE = Map.of(
            "drifted",
            false,
            "changes_pending",
            true,
            "changes",
            List.of(Map.of("address", "module.main.terraform_data.this", "actions", List.of("delete", "create"))));

    private CheckReports() {}
}
