package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.module.ModuleService;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resource.Fingerprint;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.rules.OutputSchema;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.GraphNode;
import dev.polystack.rules.graph.Resolution;
import dev.polystack.rules.graph.Resolver;
import dev.polystack.rules.graph.ResourceTypeSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Node resolution, in one place: a node's inputs and provider configurations from the environment's
 * context and its dependencies' outputs, the module version's secret inputs, the fingerprint that decides
 * whether it must run again, and sealing. Used by the engine (when it must know whether a node runs),
 * by claims (a node that runs anyway is resolved when its job is claimed) and by dry-runs.
 */
@ApplicationScoped
public class NodeResolver {

    @Inject
    ActiveResourceService activeResources;

    @Inject
    ModuleService modules;

    @Inject
    ProviderService providers;

    @Inject
    ResourceTypeService resourceTypes;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    /** A node resolved for a run: what its job gets, sealed for storage, and its fingerprint. */
    public record Resolved(ResolvedNode node, byte[] sealed, Fingerprint fingerprint) {}

    /**
     * Resolves an apply node: the recorded inputs of a rollback ({@link DeploymentNode#fixed()}), else from the active resources'
     * outputs today, with the module version's secret inputs. Throws when a reference cannot be resolved.
     */
    public Resolved forApply(DeploymentNode node, EnvironmentRef environment, Lookups lookups) {
        ResolvedNode resolved = node.fixed()
                ? read(open(node))
                : withSecretInputs(
                        lookups,
                        node.moduleSlug(),
                        node.moduleVersion(),
                        toResolved(resolve(node, environment, false, Set.of())));
        return sealed(node, lookups, resolved);
    }

    /** Seals a resolved node and fingerprints it. */
    public Resolved sealed(DeploymentNode node, Lookups lookups, ResolvedNode resolved) {
        Fingerprint fingerprint = fingerprint(
                lookups,
                node.moduleSlug(),
                node.moduleVersion(),
                node.identity().type(),
                node.spec(),
                resolved);
        return new Resolved(resolved, secretBox.seal(write(resolved), node.resolvedBinding()), fingerprint);
    }

    /** Resolves with the active resources' outputs, except those of {@code unknown}, whose outputs are not known yet. */
    public Resolution resolve(
            DeploymentNode node, EnvironmentRef environment, boolean lenient, Set<ResourceIdentity> unknown) {
        GraphNode graphNode = NodeSpecs.read(json, node.spec());
        // what it refers to, read at once
        Set<ResourceIdentity> referenced =
                new HashSet<>(graphNode.dependencies().values());
        referenced.addAll(graphNode.manifestReferences().values());
        referenced.removeAll(unknown);
        var outputs = activeResources.outputsLookup(environment.id(), referenced);
        return Resolver.resolve(
                graphNode, environment.context(), id -> unknown.contains(id) ? null : outputs.apply(id), lenient);
    }

    /** Adds the module version's secret inputs, which never leave sealed storage before this point. */
    public ResolvedNode withSecretInputs(
            Lookups lookups, String moduleSlug, Integer moduleVersion, ResolvedNode resolved) {
        Map<String, String> secrets = lookups.secretInputs(moduleSlug, moduleVersion);
        if (secrets.isEmpty()) {
            return resolved;
        }
        ObjectNode inputs = resolved.inputs().deepCopy();
        secrets.forEach(inputs::put);
        TreeSet<String> sensitive = new TreeSet<>(resolved.sensitiveInputs());
        sensitive.addAll(secrets.keySet());
        return new ResolvedNode(
                inputs, new ArrayList<>(sensitive), resolved.providers(), resolved.sensitiveProviderFields());
    }

    public ResolvedNode toResolved(Resolution resolution) {
        return new ResolvedNode(
                resolution.inputs(),
                new ArrayList<>(new TreeSet<>(resolution.sensitiveInputs())),
                new TreeMap<>(resolution.providerConfigurations()),
                new ArrayList<>(new TreeSet<>(resolution.sensitiveProviderFields())));
    }

    /**
     * What decides whether a node must run again: module version, resolved inputs, provider configuration,
     * the providers' secret values (by digest only), their sources and versions, and the output schema of
     * the resource type. The digest itself is made as it always was (module, inputs, provider configuration
     * and secrets), so that resources recorded before the parts were kept do not all run again.
     */
    public Fingerprint fingerprint(
            Lookups lookups,
            String moduleSlug,
            Integer moduleVersion,
            String resourceType,
            JsonNode spec,
            ResolvedNode resolved) {
        ObjectNode document = json.createObjectNode();
        document.put("module", moduleSlug);
        document.put("version", moduleVersion == null ? 0 : moduleVersion);
        document.set("inputs", resolved.inputs());
        document.set("providers", json.valueToTree(resolved.providers()));
        ObjectNode secrets = document.putObject("provider_secrets");
        NodeSpecs.providerKeys(spec).forEach((local, key) -> secrets.put(local, lookups.providerSecretsDigest(key)));
        ObjectNode providerParts = json.createObjectNode();
        providerParts.set("configuration", document.get("providers"));
        providerParts.set("secrets", secrets);
        providerParts.set("sources", NodeSpecs.providerSources(spec));
        ObjectNode parts = json.createObjectNode();
        parts.put("module", moduleSlug + "@" + (moduleVersion == null ? 0 : moduleVersion));
        parts.put("inputs", Digests.of(resolved.inputs()));
        parts.put("providers", Digests.of(providerParts));
        parts.put("schema", lookups.schemaDigest(resourceType));
        return new Fingerprint(Digests.of(document), parts);
    }

    public Lookups lookups(UUID orgId) {
        return new Lookups(orgId);
    }

    /**
     * What many nodes of one deployment or dry-run look up alike, and what one claim needs twice (to
     * resolve its node and to write its payload), looked up once: module versions and their secret inputs,
     * resource types, and providers' secrets. Lives for one call, never longer (secrets may change between
     * calls).
     */
    public final class Lookups {
        private final UUID orgId;
        private final Map<String, Optional<ModuleService.RunnableVersion>> versions = new HashMap<>();
        private final Map<String, Map<String, String>> secretInputs = new HashMap<>();
        private final Map<String, Optional<ResourceTypeSpec>> types = new HashMap<>();
        private final Map<String, Map<String, String>> providerSecrets = new HashMap<>();
        private final Map<String, String> providerDigests = new HashMap<>();
        private final Map<String, String> schemas = new HashMap<>();

        private Lookups(UUID orgId) {
            this.orgId = orgId;
        }

        private Optional<ModuleService.RunnableVersion> version(String moduleSlug, int moduleVersion) {
            return versions.computeIfAbsent(
                    moduleSlug + "@" + moduleVersion, k -> modules.runnable(orgId, moduleSlug, moduleVersion));
        }

        /** What a job of this module version runs; empty when the version is gone. */
        public Optional<ModuleService.ModuleRun> moduleRun(String moduleSlug, int moduleVersion) {
            return version(moduleSlug, moduleVersion).map(ModuleService.RunnableVersion::run);
        }

        public Map<String, String> secretInputs(String moduleSlug, Integer moduleVersion) {
            if (moduleVersion == null) {
                return Map.of();
            }
            return secretInputs.computeIfAbsent(
                    moduleSlug + "@" + moduleVersion,
                    k -> version(moduleSlug, moduleVersion)
                            .map(v -> v.secretInputs().get())
                            .orElse(Map.of()));
        }

        /** The resource type's output schema, compiled; empty when the type is gone. */
        public Optional<OutputSchema> outputSchema(String resourceType) {
            return resourceType(resourceType).map(resourceTypes::outputSchemaOf);
        }

        private Optional<ResourceTypeSpec> resourceType(String resourceType) {
            return types.computeIfAbsent(resourceType, type -> resourceTypes.spec(orgId, type));
        }

        String schemaDigest(String resourceType) {
            return schemas.computeIfAbsent(
                    resourceType,
                    type -> Digests.of(resourceType(type)
                            .map(ResourceTypeSpec::outputSchema)
                            .filter(Objects::nonNull)
                            .orElse(json.nullNode())));
        }

        /** The secret fields of a provider configuration, by its key ({@code type.id}). */
        public Map<String, String> providerSecrets(String key) {
            return providerSecrets.computeIfAbsent(key, k -> {
                String[] parts = k.split("\\.", 2);
                return providers.secretsFor(orgId, parts[0], parts[1]);
            });
        }

        String providerSecretsDigest(String key) {
            return providerDigests.computeIfAbsent(
                    key, k -> Digests.of(json.valueToTree(new TreeMap<>(providerSecrets(k)))));
        }
    }

    public byte[] open(DeploymentNode node) {
        return secretBox.open(node.sealedResolved(), node.resolvedBinding());
    }

    public ResolvedNode read(byte[] resolved) {
        try {
            return json.readValue(resolved, ResolvedNode.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] write(ResolvedNode resolved) {
        try {
            return json.writeValueAsBytes(resolved);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] seal(ResolvedNode resolved, DeploymentNode node) {
        return secretBox.seal(write(resolved), node.resolvedBinding());
    }

    /** Whether a reference could not be resolved: the node fails with this, it is not an engine error. */
    public static String unresolved(RulesException e) {
        return "its inputs could not be resolved: " + e.getMessage();
    }
}
