package dev.polystack.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;

@Command(
        name = "get",
        mixinStandardHelpOptions = true,
        description =
                "List objects of one kind: orgs, projects, envs, deployments, resources, env-types, resource-types, modules,"
                        + " module-rules, runner-rules, providers, runners.")
class GetCommand extends Connection implements Callable<Integer> {

    /** Where a kind is listed and the columns of its table; {org}, {project} and {env} come from the options. */
    record Kind(String path, List<String> columns, String scope) {}

    static final Map<String, Kind> KINDS = Map.ofEntries(
            Map.entry("orgs", new Kind("/api/v1/orgs", List.of("id", "name", "created_at"), "instance")),
            Map.entry("projects", new Kind("/api/v1/orgs/{org}/projects", List.of("id", "name", "created_at"), "org")),
            Map.entry(
                    "envs",
                    new Kind(
                            "/api/v1/orgs/{org}/projects/{project}/envs",
                            List.of("id", "env_type_id", "status", "created_at"),
                            "project")),
            Map.entry(
                    "deployments",
                    new Kind(
                            "{env}/deployments",
                            List.of(
                                    "id",
                                    "mode",
                                    "status",
                                    "manifest_version",
                                    "created_by",
                                    "created_at",
                                    "finished_at"),
                            "env")),
            Map.entry(
                    "resources",
                    new Kind(
                            "{env}/resource-graph",
                            List.of("type", "class", "id", "module_id", "module_version", "runner_id", "status"),
                            "env")),
            Map.entry("env-types", new Kind("/api/v1/orgs/{org}/env-types", List.of("id", "description"), "org")),
            Map.entry(
                    "resource-types",
                    new Kind(
                            "/api/v1/orgs/{org}/resource-types",
                            List.of("id", "description", "developer_accessible"),
                            "org")),
            Map.entry(
                    "modules",
                    new Kind(
                            "/api/v1/orgs/{org}/modules",
                            List.of("id", "resource_type", "version", "module_source"),
                            "org")),
            Map.entry(
                    "module-rules",
                    new Kind(
                            "/api/v1/orgs/{org}/module-rules",
                            List.of(
                                    "id",
                                    "module_id",
                                    "resource_class",
                                    "resource_id",
                                    "project_id",
                                    "env_type_id",
                                    "env_id"),
                            "org")),
            Map.entry(
                    "runner-rules",
                    new Kind(
                            "/api/v1/orgs/{org}/runner-rules",
                            List.of(
                                    "id",
                                    "runner_id",
                                    "resource_type",
                                    "resource_class",
                                    "project_id",
                                    "env_type_id",
                                    "env_id"),
                            "org")),
            Map.entry(
                    "providers",
                    new Kind(
                            "/api/v1/orgs/{org}/providers",
                            List.of("provider_type", "id", "source", "version_constraint"),
                            "org")),
            Map.entry(
                    "runners",
                    new Kind(
                            "/api/v1/orgs/{org}/runners",
                            List.of("id", "status", "max_concurrent_jobs", "last_seen_at"),
                            "org")));

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "The kind to list.", completionCandidates = Kinds.class)
    String kind;

    @Option(
            names = "--org",
            description = "The organization (default: the one of --env or of the context's environment).")
    String org;

    @Option(names = "--project", description = "For envs: the project (default: the one of --env).")
    String project;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    Output.Format format;

    @Override
    public Integer call() {
        Kind found = KINDS.get(kind);
        if (found == null) {
            throw CliException.badInput("unknown kind `" + kind + "`; the kinds are " + new TreeSet<>(KINDS.keySet()));
        }
        String path = found.path();
        switch (found.scope()) {
            case "env" -> path = path.replace("{env}", target().path());
            case "project" -> {
                Target t = env != null || org == null || project == null ? target() : null;
                path = path.replace("{org}", org != null ? org : t.org())
                        .replace("{project}", project != null ? project : t.project());
            }
            case "org" -> path = path.replace("{org}", org != null ? org : target().org());
            default -> {}
        }
        Client client = client();
        ArrayNode items = JsonNodeFactory.instance.arrayNode();
        if (kind.equals("resources")) {
            client.get(path).path("nodes").forEach(items::add);
        } else {
            client.items(path, items::add);
        }
        Output.print(spec.commandLine().getOut(), format, items, found.columns());
        return ExitCodes.OK;
    }

    /** The kinds, for shell completion. */
    static final class Kinds extends ArrayList<String> {
        Kinds() {
            super(new TreeSet<>(KINDS.keySet()));
        }
    }
}
