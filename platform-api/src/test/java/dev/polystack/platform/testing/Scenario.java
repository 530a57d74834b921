package dev.polystack.platform.testing;

import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.restassured.response.Response;
import jakarta.persistence.EntityManager;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;

/**
 * The fixture of the platform-api tests: an organization set up for deployments. By default environment
 * shop/prod, resource type {@code thing} whose module takes an optional {@code upstream} param, a provider
 * with a secret, rules without criteria, and one runner; {@link #withoutModules} leaves the resource
 * types and modules to the test.
 */
public final class Scenario {

    public static final String PROVIDER_SECRET = "provider-secret-value-42";

    public final String org;
    public final RunnerDriver runner;
    /** The id of the runner rule that sends every job of the organization to {@link #runner}. */
    public final String runnerRuleId;

    /** The whole scenario: the places, the resource type {@code thing}, its module and provider, and a runner. */
    public Scenario(int runnerSlots) {
        this(Api.createOrg(), runnerSlots);
        resourceType(Map.of(
                "id",
                "thing",
                "output_schema",
                Map.of(
                        "type",
                        "object",
                        "required",
                        List.of("name"),
                        "properties",
                        Map.of("name", Map.of("type", "string")))));
        provider(Map.of(
                "provider_type",
                "null",
                "id",
                "default",
                "source",
                "hashicorp/null",
                "configuration",
                Map.of(),
                "secrets",
                Map.of("token", PROVIDER_SECRET)));
        defineModule("resource \"terraform_data\" \"this\" { input = var.name }");
        moduleRule(Map.of("module_id", "thing"));
    }

    private Scenario(String org, int runnerSlots) {
        this.org = org;
        admin().body(Map.of("id", "production"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "prod", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
        runner = RunnerDriver.register(org, "r1", runnerSlots);
        runnerRuleId = admin().body(Map.of("runner_id", "r1"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /**
     * Only the places and the runner: a new organization (its id starts with {@code prefix}), env type
     * production, project shop, environment prod and runner r1 with a rule for every job. The resource
     * types, modules and module rules are the caller's, through {@link #resourceType}, {@link #module}
     * and {@link #moduleRule}.
     */
    public static Scenario withoutModules(String prefix, int runnerSlots) {
        return new Scenario(Api.createOrg(prefix), runnerSlots);
    }

    public void resourceType(Map<String, Object> body) {
        admin().body(body).post("/api/v1/orgs/{org}/resource-types", org).then().statusCode(201);
    }

    public void provider(Map<String, Object> body) {
        admin().body(body).post("/api/v1/orgs/{org}/providers", org).then().statusCode(201);
    }

    public void module(Map<String, Object> body) {
        admin().body(body).post("/api/v1/orgs/{org}/modules", org).then().statusCode(201);
    }

    /** Creates a module rule and answers its id. */
    public String moduleRule(Map<String, Object> body) {
        return admin().body(body)
                .post("/api/v1/orgs/{org}/module-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Submits a manifest written in YAML and answers its version. */
    public int manifest(String yaml) {
        return admin().contentType("application/yaml")
                .body(yaml.getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", org)
                .then()
                .statusCode(201)
                .extract()
                .path("version");
    }

    /** What every version of the module declares: its variables and the output its type requires. */
    public static final String DECLARATIONS = """
            variable "name" { type = string }
            variable "upstream" {
              type    = any
              default = null
            }
            variable "size" {
              type    = number
              default = 1
            }
            output "name" { value = var.name }
            """;

    /** Creates the module, or its next version, with {@code code} after the declarations. */
    public void defineModule(String code) {
        Map<String, Object> module = new LinkedHashMap<>();
        module.put("id", "thing");
        module.put("resource_type", "thing");
        module.put("module_source", "inline");
        module.put("module_source_code", DECLARATIONS + code);
        module.put(
                "module_params",
                Map.of(
                        "upstream",
                        Map.of("type", "any", "is_optional", true),
                        "size",
                        Map.of("type", "number", "is_optional", true)));
        module.put("module_inputs", Map.of("name", "${context.env_id}-${context.res_id}"));
        module.put("provider_mapping", Map.of("null", "null.default"));
        if (admin().get("/api/v1/orgs/{org}/modules/thing", org).statusCode() == 404) {
            module(module);
        } else {
            admin().body(module)
                    .put("/api/v1/orgs/{org}/modules/thing", org)
                    .then()
                    .statusCode(200);
        }
    }

    /**
     * Submits a manifest of one workload {@code app} whose resources reference their upstreams: each
     * entry is {@code alias -> upstream aliases}.
     */
    public int manifest(Map<String, List<String>> resources) {
        return manifest(resources, Map.of());
    }

    public int manifest(Map<String, List<String>> resources, Map<String, Integer> sizes) {
        StringBuilder yaml = new StringBuilder("workloads:\n  app:\n    resources:\n");
        resources.forEach((alias, upstreams) -> {
            yaml.append("      ").append(alias).append(":\n        type: thing\n");
            if (!upstreams.isEmpty() || sizes.containsKey(alias)) {
                yaml.append("        params:\n");
            }
            if (!upstreams.isEmpty()) {
                yaml.append("          upstream: [");
                yaml.append(String.join(
                        ", ",
                        upstreams.stream()
                                .map(u -> "\"${resources." + u + ".outputs.name}\"")
                                .toList()));
                yaml.append("]\n");
            }
            if (sizes.containsKey(alias)) {
                yaml.append("          size: ").append(sizes.get(alias)).append('\n');
            }
        });
        return manifest(yaml.toString());
    }

    public Response create(Map<String, Object> body) {
        return admin().body(body).post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", org);
    }

    public String deploy() {
        return create(Map.of("mode", "deploy")).then().statusCode(201).extract().path("id");
    }

    /** Deploys, and answers every job it queues with success until none is left; the deployment's id. */
    public String deployAll() {
        String deployment = deploy();
        Map<String, Map<String, Object>> jobs;
        while (!(jobs = claimAll()).isEmpty()) {
            jobs.values().forEach(this::succeed);
        }
        return deployment;
    }

    /**
     * Runs a check of the environment whose runner reports {@code reports} by resource id ({@link
     * CheckReports#CLEAN} for the others); the check's id, once it succeeded.
     */
    public String check(Map<String, Map<String, Object>> reports) {
        String check = admin().body(Map.of())
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/checks", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        claimAll()
                .forEach((resource, job) -> runner.result(
                                job.get("job_id"),
                                Map.of(
                                        "status",
                                        "succeeded",
                                        "check",
                                        reports.getOrDefault(resource, CheckReports.CLEAN)))
                        .then()
                        .statusCode(204));
        if (!"succeeded".equals(status(check))) {
            throw new IllegalStateException("check " + check + " is " + status(check) + ", not succeeded");
        }
        return check;
    }

    /**
     * Subscribes a webhook to opened issues, at an address of the documentation range (nothing answers there; the test
     * profile refuses private addresses); its id.
     */
    public String webhook() {
        return admin().body(Map.of("url", "https://192.0.2.10/hook", "events", List.of("issue.opened")))
                .post("/api/v1/orgs/{org}/webhooks", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** The environment's deployments, newest first, as its first page lists them. */
    public List<Map<String, Object>> deployments() {
        return admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    public Map<String, Object> deployment(String id) {
        return admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", org, id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("");
    }

    public String status(String id) {
        return (String) deployment(id).get("status");
    }

    /** Status of every node by resource id (app.a, ...). */
    @SuppressWarnings("unchecked")
    public Map<String, String> nodeStatuses(String id) {
        Map<String, String> statuses = new LinkedHashMap<>();
        for (Map<String, Object> node :
                (List<Map<String, Object>>) deployment(id).get("nodes")) {
            statuses.put((String) node.get("id"), (String) node.get("status"));
        }
        return statuses;
    }

    /** Claims every job that is ready now, by resource id. */
    public Map<String, Map<String, Object>> claimAll() {
        Map<String, Map<String, Object>> jobs = new LinkedHashMap<>();
        Map<String, Object> job;
        while ((job = runner.claim("0s")) != null) {
            String resource = RunnerDriver.resourceOf(job);
            if (jobs.putIfAbsent(resource, job) != null) {
                // the job would be dropped, claimed by nobody who answers it, until its lease ran out
                throw new IllegalStateException("two claimed jobs are for " + resource
                        + " (environments with the same resources?): answer the jobs one by one instead");
            }
        }
        return jobs;
    }

    public void succeed(Map<String, Object> job) {
        runner.succeed(job, Map.of("name", "out-" + RunnerDriver.resourceOf(job)));
    }

    /** A graph of aliases, each followed by the list of aliases it refers to: {@code graph("a", List.of(), "b", List.of("a"))}. */
    public static Map<String, List<String>> graph(Object... aliasThenUpstreams) {
        Map<String, List<String>> graph = new LinkedHashMap<>();
        for (int i = 0; i < aliasThenUpstreams.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> upstreams = (List<String>) aliasThenUpstreams[i + 1];
            graph.put((String) aliasThenUpstreams[i], upstreams);
        }
        return graph;
    }

    /** The database id of environment shop/prod (the API names environments by their slugs only). */
    public UUID prodEnvironmentId() {
        EntityManager entityManager =
                Arc.container().instance(EntityManager.class).get();
        return QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select e.id from environment e join organization o on o.id = e.org_id"
                        + " where o.slug = ?1 and e.slug = 'prod'")
                .setParameter(1, org)
                .getSingleResult());
    }
}
