package dev.polystack.rules.template;

import java.util.Set;

/** Where a template appears, which decides which references it may use. */
public enum Usage {
    /** Module inputs: context (all fields) and the module's dependencies as {@code resources.<alias>}. */
    MODULE_INPUT(true, false),
    /** Provider configuration: like module inputs. */
    PROVIDER_CONFIGURATION(true, false),
    /** Manifests (params and workload outputs): context, the workload's {@code resources} and {@code shared}. */
    MANIFEST(false, true);

    /** Context fields that every usage may read. */
    public static final Set<String> ENVIRONMENT_FIELDS = Set.of("org_id", "project_id", "env_id", "env_type_id");
    /** Context fields that describe the resource being provisioned. */
    public static final Set<String> RESOURCE_FIELDS = Set.of("res_type", "res_class", "res_id");

    private final boolean resourceContext;
    private final boolean shared;

    Usage(boolean resourceContext, boolean shared) {
        this.resourceContext = resourceContext;
        this.shared = shared;
    }

    public boolean allowsResourceContext() {
        return resourceContext;
    }

    public boolean allowsShared() {
        return shared;
    }
}
