package dev.polystack.platform.resource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.SqlTimes;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.graph.Outputs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.jpa.HibernateHints;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/** The resources environments currently have. Called by the deployment engine inside its transactions. */
@ApplicationScoped
public class ActiveResourceService {

    @Inject
    ActiveResourceRepository resources;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    public List<ActiveResource> of(UUID environmentId) {
        return resources.ofEnvironment(environmentId);
    }

    /**
     * An active resource as an environment's resource graph shows it.
     *
     * @param outputs the output values, sensitive ones as {@code ***}; null unless asked for
     */
    public record GraphRow(
            ResourceIdentity identity,
            String moduleSlug,
            int moduleVersion,
            String runnerSlug,
            UUID lastDeploymentId,
            JsonNode outputs,
            JsonNode tofuResources,
            List<ResourceDependency> dependencies,
            Instant updatedAt) {}

    /**
     * An environment's active resources for its resource graph, read as columns in one statement (no entities),
     * in the order of {@link #of}. Outputs are opened only when asked for: reading a graph otherwise decrypts
     * nothing.
     */
    public List<GraphRow> graphRows(UUID environmentId, boolean withOutputs) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = resources
                .getEntityManager()
                .createNativeQuery("""
                        select r.res_type, r.res_class, r.res_id, r.module_slug, r.module_version, ru.slug, r.last_deployment_id,
                               cast(r.tofu_resources as text), cast(r.dependencies as text), r.updated_at""" + (withOutputs ? ", r.outputs, cast(r.sensitive_outputs as text)" : "") + """
                         from active_resource r left join runner ru on ru.id = r.runner_id
                        where r.environment_id = ?1 order by r.res_id, r.res_type, r.res_class""")
                .setParameter(1, environmentId)
                .setHint(HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .getResultList();
        List<GraphRow> graph = new ArrayList<>(rows.size());
        try {
            for (Object[] row : rows) {
                ResourceIdentity identity = new ResourceIdentity((String) row[0], (String) row[1], (String) row[2]);
                JsonNode outputs = withOutputs
                        ? masked(outputs(environmentId, identity, (byte[]) row[10], (String) row[11]))
                        : null;
                graph.add(new GraphRow(
                        identity,
                        (String) row[3],
                        ((Number) row[4]).intValue(),
                        (String) row[5],
                        (UUID) row[6],
                        outputs,
                        raw((String) row[7]),
                        ResourceDependency.read(json.readTree((String) row[8])),
                        SqlTimes.instant(row[9])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return graph;
    }

    /** JSON the database holds, passed on as it is: a graph's answer writes it without reading it first. */
    private static JsonNode raw(String json) {
        return JsonNodeFactory.instance.rawValueNode(new RawValue(json));
    }

    /** For an advance, which holds many nodes: see {@link ActiveResourceRepository#findWithoutFlush}. */
    public Optional<ActiveResource> findWithoutFlush(UUID environmentId, ResourceIdentity identity) {
        return resources.findWithoutFlush(environmentId, identity);
    }

    /** For an advance that dispatches many nodes at once: each identity's active resource, if any, in one read. */
    public Map<ResourceIdentity, Optional<ActiveResource>> findAllWithoutFlush(
            UUID environmentId, Collection<ResourceIdentity> identities) {
        Map<ResourceIdentity, Optional<ActiveResource>> found = new HashMap<>();
        identities.forEach(identity -> found.put(identity, Optional.empty()));
        resources
                .findAllWithoutFlush(environmentId, identities)
                .forEach(resource -> found.put(resource.identity(), Optional.of(resource)));
        return found;
    }

    /** The runner each provisioned resource must keep, by identity (runner ids). */
    public Map<ResourceIdentity, UUID> runners(UUID environmentId) {
        Map<ResourceIdentity, UUID> runners = new LinkedHashMap<>();
        for (ActiveResource resource : resources.ofEnvironment(environmentId)) {
            runners.put(resource.identity(), resource.runnerId());
        }
        return runners;
    }

    /** The outputs of every active resource, opened. */
    public Map<ResourceIdentity, Outputs> outputs(UUID environmentId) {
        Map<ResourceIdentity, Outputs> outputs = new HashMap<>();
        for (ActiveResource resource : resources.ofEnvironment(environmentId)) {
            outputs.put(resource.identity(), outputsOf(resource));
        }
        return outputs;
    }

    /**
     * Outputs looked up one resource at a time, as a resolution asks for them (null for a resource that
     * is not provisioned): a node reads its few dependencies, not the whole environment.
     */
    public Function<ResourceIdentity, Outputs> outputsLookup(UUID environmentId) {
        return outputsLookup(environmentId, List.of());
    }

    /**
     * The outputs of some resources of an environment: its id, then their types, classes and ids, as arrays. Each
     * parameter is read through a subquery, so that the planner does not see it: a plan made for three references,
     * or for an environment its statistics do not know yet, looked cheaper than one for any, so PostgreSQL planned
     * the statement again at every claim (0.18 ms, more than running it). Now the plan for the parameters at hand
     * costs what the generic plan does, and the generic one is kept after the fifth execution on a connection.
     */
    static final String REFERENCED_OUTPUTS = """
            select res_type, res_class, res_id, outputs, cast(sensitive_outputs as text) from active_resource
            where environment_id = (select ?::uuid)
              and (res_type, res_class, res_id) in
                  (select * from unnest((select ?::text[]), (select ?::text[]), (select ?::text[])))""";

    /**
     * The same for a node's references, read at once in one statement; a resource not among them is looked up
     * on its own. A resource that is not active has no outputs (null).
     */
    public Function<ResourceIdentity, Outputs> outputsLookup(
            UUID environmentId, Collection<ResourceIdentity> referenced) {
        Map<ResourceIdentity, Optional<Outputs>> seen = new HashMap<>();
        List<ResourceIdentity> identities = List.copyOf(new LinkedHashSet<>(referenced));
        if (!identities.isEmpty()) {
            identities.forEach(identity -> seen.put(identity, Optional.empty()));
            // a plain statement of one text whatever the number of references (the session's changes are not
            // read: what this transaction recorded through entities is not flushed for it, as before)
            List<Object[]> rows = InTransaction.queryAll(
                    resources.getEntityManager(),
                    REFERENCED_OUTPUTS,
                    row -> new Object[] {
                        row.getString(1), row.getString(2), row.getString(3), row.getBytes(4), row.getString(5)
                    },
                    environmentId,
                    identities.stream().map(ResourceIdentity::type).toArray(String[]::new),
                    identities.stream().map(ResourceIdentity::resourceClass).toArray(String[]::new),
                    identities.stream().map(ResourceIdentity::id).toArray(String[]::new));
            for (Object[] row : rows) {
                ResourceIdentity identity = new ResourceIdentity((String) row[0], (String) row[1], (String) row[2]);
                seen.put(identity, Optional.of(outputs(environmentId, identity, (byte[]) row[3], (String) row[4])));
            }
        }
        return identity -> seen.computeIfAbsent(identity, id -> outputsOf(environmentId, id))
                .orElse(null);
    }

    /**
     * One resource's outputs, read without loading the resource (its spec and resource list are large).
     * Nothing is flushed first: active resources change only in job results and environment deletions,
     * each in a transaction of its own, never in one that resolves.
     */
    private Optional<Outputs> outputsOf(UUID environmentId, ResourceIdentity identity) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = resources
                .getEntityManager()
                .createNativeQuery("select outputs, cast(sensitive_outputs as text) from active_resource"
                        + " where environment_id = ?1 and res_type = ?2 and res_class = ?3 and res_id = ?4")
                .setParameter(1, environmentId)
                .setParameter(2, identity.type())
                .setParameter(3, identity.resourceClass())
                .setParameter(4, identity.id())
                .setHint(HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] row = rows.get(0);
        return Optional.of(outputs(environmentId, identity, (byte[]) row[0], (String) row[1]));
    }

    private Outputs outputs(UUID environmentId, ResourceIdentity identity, byte[] sealed, String sensitiveNames) {
        try {
            ObjectNode values = sealed == null
                    ? json.createObjectNode()
                    : (ObjectNode) json.readTree(
                            secretBox.open(sealed, ActiveResource.outputsBinding(environmentId, identity)));
            Set<String> sensitive = new HashSet<>();
            json.readTree(sensitiveNames).forEach(name -> sensitive.add(name.asText()));
            return new Outputs(values, sensitive);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Outputs outputsOf(ActiveResource resource) {
        ObjectNode values = json.createObjectNode();
        if (resource.sealedOutputs() != null) {
            try {
                values =
                        (ObjectNode) json.readTree(secretBox.open(resource.sealedOutputs(), resource.outputsBinding()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Set<String> sensitive = new HashSet<>();
        resource.sensitiveOutputs().forEach(name -> sensitive.add(name.asText()));
        return new Outputs(values, sensitive);
    }

    /**
     * The plain statement that records (or replaces) a resource after a successful apply, for the job's result to
     * send with its other writes: it writes the row without loading the one it replaces. A replaced row keeps its id
     * and its creation time. Nothing is flushed before it: a result changes only its job and node through entities,
     * and nothing in its transaction has loaded the resource as an entity (the statement bypasses the persistence
     * session).
     */
    public Statement recording(Provisioned provisioned) {
        byte[] sealedOutputs;
        try {
            sealedOutputs = secretBox.seal(
                    json.writeValueAsBytes(provisioned.outputs()),
                    ActiveResource.outputsBinding(provisioned.environmentId(), provisioned.identity()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ResourceIdentity identity = provisioned.identity();
        byte[] sealedResolved =
                secretBox.seal(provisioned.resolved(), "resolved:" + provisioned.environmentId() + ":" + identity);
        JsonNode parts = provisioned.fingerprint().parts();
        Instant now = clock.instant();
        return new Statement(
                """
                insert into active_resource (id, environment_id, res_type, res_class, res_id, module_id, module_slug,
                    module_version, runner_id, spec, inputs_digest, digest_parts, resolved, outputs,
                    sensitive_outputs, tofu_resources, dependencies, last_deployment_id, created_at, updated_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, cast(? as jsonb), ?, ?, cast(? as jsonb),
                    cast(? as jsonb), cast(? as jsonb), ?, ?, ?)
                on conflict (environment_id, res_type, res_class, res_id) do update set
                    module_id = excluded.module_id, module_slug = excluded.module_slug,
                    module_version = excluded.module_version, runner_id = excluded.runner_id, spec = excluded.spec,
                    inputs_digest = excluded.inputs_digest, digest_parts = excluded.digest_parts,
                    resolved = excluded.resolved, outputs = excluded.outputs,
                    sensitive_outputs = excluded.sensitive_outputs, tofu_resources = excluded.tofu_resources,
                    dependencies = excluded.dependencies, last_deployment_id = excluded.last_deployment_id,
                    updated_at = excluded.updated_at""",
                UUID.randomUUID(),
                provisioned.environmentId(),
                identity.type(),
                identity.resourceClass(),
                identity.id(),
                provisioned.moduleId(),
                provisioned.moduleSlug(),
                provisioned.moduleVersion(),
                provisioned.runnerId(),
                provisioned.spec().toString(),
                provisioned.fingerprint().digest(),
                parts == null || parts.isNull() ? null : parts.toString(),
                sealedResolved,
                sealedOutputs,
                provisioned.sensitiveOutputs().toString(),
                provisioned.tofuResources().toString(),
                ResourceDependency.write(provisioned.dependencies()).toString(),
                provisioned.deploymentId(),
                now,
                now);
    }

    /** Forgets a resource after a successful destroy. */
    public void remove(UUID environmentId, ResourceIdentity identity) {
        resources.find(environmentId, identity).ifPresent(resources::delete);
    }

    /** The resolved inputs of a resource's last apply, opened; for destroying it. */
    public byte[] resolvedOf(ActiveResource resource) {
        return secretBox.open(resource.sealedResolved(), resource.resolvedBinding());
    }

    public long count(UUID environmentId) {
        return resources.count("environmentId", environmentId);
    }

    /** Masks sensitive output values for display. */
    public static JsonNode masked(Outputs outputs) {
        ObjectNode masked = outputs.values();
        outputs.sensitive().forEach(name -> {
            if (masked.has(name)) {
                masked.put(name, "***");
            }
        });
        return masked;
    }
}
