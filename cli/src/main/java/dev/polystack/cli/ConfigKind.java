package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A kind of object configuration as code manages, in the order objects are created (each may refer to the
 * ones before it; deletes run in the reverse order): its name in documents, where the API keeps it, the fields
 * that name one object, the fields a document may set, and its write-only field.
 */
enum ConfigKind {
    ENV_TYPE("EnvType", "/env-types", List.of("id"), Set.of("description"), null),
    RESOURCE_TYPE(
            "ResourceType",
            "/resource-types",
            List.of("id"),
            Set.of("description", "output_schema", "developer_accessible"),
            null),
    PROVIDER(
            "Provider",
            "/providers",
            List.of("provider_type", "id"),
            Set.of("source", "version_constraint", "configuration"),
            "secrets"),
    MODULE(
            "Module",
            "/modules",
            List.of("id"),
            Set.of(
                    "resource_type",
                    "module_source",
                    "module_source_code",
                    "module_params",
                    "module_inputs",
                    "provider_mapping",
                    "dependencies"),
            "secret_inputs"),
    MODULE_RULE(
            "ModuleRule",
            "/module-rules",
            List.of(),
            Set.of("module_id", "resource_class", "resource_id", "project_id", "env_type_id", "env_id"),
            null),
    RUNNER(
            "Runner",
            "/runners",
            List.of("id"),
            Set.of("description", "public_key", "labels", "max_concurrent_jobs"),
            null),
    RUNNER_RULE(
            "RunnerRule",
            "/runner-rules",
            List.of(),
            Set.of("runner_id", "project_id", "env_type_id", "env_id", "resource_type", "resource_class"),
            null),
    PROJECT("Project", "/projects", List.of("id"), Set.of("name"), null),
    ENVIRONMENT("Environment", "/projects/{project_id}/envs", List.of("project_id", "id"), Set.of("env_type_id"), null);

    /** The fields every kind has besides its own. */
    static final Set<String> COMMON = Set.of("kind", "protected");

    final String documentName;
    final String collection;
    final List<String> keys;
    final Set<String> fields;
    final String secretField;

    ConfigKind(String documentName, String collection, List<String> keys, Set<String> fields, String secretField) {
        this.documentName = documentName;
        this.collection = collection;
        this.keys = keys;
        this.fields = fields;
        this.secretField = secretField;
    }

    static Optional<ConfigKind> named(String name) {
        return Arrays.stream(values())
                .filter(kind -> kind.documentName.equals(name))
                .findFirst();
    }

    static List<String> names() {
        return Arrays.stream(values()).map(kind -> kind.documentName).toList();
    }

    /** Rules have no name of their own: they are known by what they match and what they pick. */
    boolean isRule() {
        return keys.isEmpty();
    }

    /** What a rule of this kind matches on (empty for other kinds). */
    List<String> criteria() {
        return switch (this) {
            case MODULE_RULE -> List.of("resource_class", "resource_id", "project_id", "env_type_id", "env_id");
            case RUNNER_RULE -> List.of("resource_type", "resource_class", "project_id", "env_type_id", "env_id");
            default -> List.of();
        };
    }

    boolean allows(String field) {
        return COMMON.contains(field)
                || keys.contains(field)
                || fields.contains(field)
                || field.equals(secretField)
                || (this == MODULE && field.equals(ConfigDocuments.SOURCE_FILE));
    }

    /** Where objects of this kind are listed and created, for an organization (and, for environments, a project). */
    String collectionPath(String org, String project) {
        return "/api/v1/orgs/" + org + collection.replace("{project_id}", project == null ? "" : project);
    }

    /** Where one object is read, changed and deleted: its collection, then its key values (rules: their id). */
    String objectPath(String org, JsonNode object) {
        StringBuilder path =
                new StringBuilder(collectionPath(org, object.path("project_id").asText(null)));
        if (isRule()) {
            return path.append('/').append(object.path("id").asText()).toString();
        }
        for (String key : keys) {
            if (!key.equals("project_id")) {
                path.append('/').append(object.path(key).asText());
            }
        }
        return path.toString();
    }

    /** How a person names one object of this kind, e.g. {@code Provider aws.main} or {@code Environment shop/prod}. */
    String display(JsonNode object) {
        if (isRule()) {
            String target = this == MODULE_RULE
                    ? "module " + object.path("module_id").asText()
                    : "runner " + object.path("runner_id").asText();
            StringBuilder criteria = new StringBuilder();
            for (String field : criteria()) {
                if (object.hasNonNull(field)) {
                    criteria.append(criteria.isEmpty() ? "" : ", ")
                            .append(field)
                            .append('=')
                            .append(object.path(field).asText());
                }
            }
            return documentName + " (" + target + (criteria.isEmpty() ? ", everything" : "; " + criteria) + ")";
        }
        String separator = this == ENVIRONMENT ? "/" : ".";
        return documentName + " "
                + String.join(
                        separator,
                        keys.stream().map(key -> object.path(key).asText()).toList());
    }
}
