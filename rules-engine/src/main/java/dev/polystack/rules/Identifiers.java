package dev.polystack.rules;

import java.util.regex.Pattern;

/** The shapes of the names that appear in manifests, modules and rules. */
public final class Identifiers {

    /** Object ids: organizations, projects, environments, types, modules, runners. */
    public static final String SLUG = "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$";

    /** Workload names, resource aliases and resource classes. */
    public static final String NAME = "^[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?$";

    /** A resource id within an environment, such as {@code checkout.db} or {@code shared.dns}. */
    public static final String RESOURCE_ID = "^[a-z0-9]([a-z0-9._-]{0,252}[a-z0-9])?$";

    /** Module params, module inputs and outputs: OpenTofu variable names. */
    public static final String VARIABLE = "^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$";

    private static final Pattern SLUG_PATTERN = Pattern.compile(SLUG);
    private static final Pattern NAME_PATTERN = Pattern.compile(NAME);
    private static final Pattern RESOURCE_ID_PATTERN = Pattern.compile(RESOURCE_ID);
    private static final Pattern VARIABLE_PATTERN = Pattern.compile(VARIABLE);

    private Identifiers() {}

    public static boolean isSlug(String value) {
        return value != null && SLUG_PATTERN.matcher(value).matches();
    }

    public static boolean isName(String value) {
        return value != null && NAME_PATTERN.matcher(value).matches();
    }

    public static boolean isResourceId(String value) {
        return value != null && RESOURCE_ID_PATTERN.matcher(value).matches();
    }

    public static boolean isVariable(String value) {
        return value != null && VARIABLE_PATTERN.matcher(value).matches();
    }
}
