package dev.polystack.platform.module;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.TemplateChecks;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.graph.ModuleSpec;
import dev.polystack.rules.graph.ResourceTypeSpec;
import dev.polystack.rules.template.Usage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

/** Modules and their immutable versions: every change makes a new version. */
@ApplicationScoped
public class ModuleService {

    @Inject
    ModuleRepository modules;

    @Inject
    ModuleVersionRepository versions;

    @Inject
    ResourceTypeService resourceTypes;

    @Inject
    ProviderService providers;

    @Inject
    ReferenceGuard references;

    @Inject
    ObjectMapper json;

    @Inject
    SecretBox secretBox;

    /** Marker that keeps a secret value unchanged on update. */
    static final String SECRET_KEPT = "***";

    @Inject
    Clock clock;

    @Transactional
    public ModuleView create(OrgScope scope, ModuleRequest request) {
        if (request.id() == null) {
            throw PlatformException.invalid("/id", "must not be null");
        }
        if (request.resourceType() == null) {
            throw PlatformException.invalid("/resource_type", "must not be null");
        }
        UUID resourceTypeId = resourceTypes
                .findId(scope.orgId(), request.resourceType())
                .orElseThrow(() -> PlatformException.unprocessable(
                        "/resource_type", "resource type `" + request.resourceType() + "` does not exist"));
        ModuleDefinition definition = definition(scope, request);
        if (modules.find(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict("module `" + request.id() + "` already exists");
        }
        Map<String, String> secrets = secretInputs(request, definition, Map.of());
        JsonNode checked = json.valueToTree(ModuleCode.check(
                definition,
                secrets.keySet(),
                resourceTypes.spec(scope.orgId(), request.resourceType()).orElseThrow()));
        Module module = new Module(scope.orgId(), request.id(), resourceTypeId, clock.instant());
        module.manage(Management.of(request.managedBy(), request.protect()));
        modules.persist(module);
        UUID versionId = UUID.randomUUID();
        ModuleVersion version = new ModuleVersion(
                versionId,
                module.id(),
                module.nextVersion(clock.instant()),
                definition,
                sealSecrets(versionId, secrets),
                checked,
                scope.caller().principalId(),
                clock.instant());
        versions.persist(version);
        return view(module, version);
    }

    @Transactional
    public Page<ModuleView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        return Page.of(
                modules.page(scope.orgId(), page.after(), limit),
                limit,
                Module::slug,
                m -> view(m, versions.find(m.id(), m.latestVersion()).orElseThrow()));
    }

    @Transactional
    public ModuleView get(OrgScope scope, String id) {
        Module module = require(scope, id);
        return view(module, versions.find(module.id(), module.latestVersion()).orElseThrow());
    }

    /** Makes the next version; {@code expectedVersion}, when given, must be the latest one. */
    @Transactional
    public ModuleView update(OrgScope scope, String id, ModuleRequest request, Long expectedVersion) {
        Module module = require(scope, id);
        if (request.id() != null && !request.id().equals(id)) {
            throw PlatformException.invalid("/id", "cannot change; create a new module instead");
        }
        if (request.resourceType() != null
                && !request.resourceType().equals(resourceTypes.slugOf(module.resourceTypeId()))) {
            throw PlatformException.invalid("/resource_type", "cannot change; create a new module instead");
        }
        Versions.check(expectedVersion, module.latestVersion());
        ModuleDefinition definition = definition(scope, request);
        Map<String, String> existing =
                secrets(versions.find(module.id(), module.latestVersion()).orElseThrow());
        Map<String, String> secrets = secretInputs(request, definition, existing);
        module.manage(module.management().with(request.managedBy(), request.protect()));
        ModuleVersion latest =
                versions.find(module.id(), module.latestVersion()).orElseThrow();
        if (definition.equals(latest.definition()) && secrets.equals(existing)) {
            modules.flush();
            return view(module, latest);
        }
        JsonNode checked = json.valueToTree(ModuleCode.check(
                definition,
                secrets.keySet(),
                resourceTypes
                        .spec(scope.orgId(), resourceTypes.slugOf(module.resourceTypeId()))
                        .orElseThrow()));
        UUID versionId = UUID.randomUUID();
        ModuleVersion version = new ModuleVersion(
                versionId,
                module.id(),
                module.nextVersion(clock.instant()),
                definition,
                sealSecrets(versionId, secrets),
                checked,
                scope.caller().principalId(),
                clock.instant());
        versions.persist(version);
        modules.flush();
        return view(module, version);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        Module module = require(scope, id);
        module.management().requireDeletable("module `" + id + "`");
        references.requireUnused("module", module.id(), "module `" + id + "`");
        versions.getEntityManager()
                .createNativeQuery("delete from module_version where module_id = ?1")
                .setParameter(1, module.id())
                .executeUpdate();
        modules.delete(module);
    }

    @Transactional
    public Page<ModuleVersionView> versions(OrgScope scope, String id, PageRequest page) {
        Module module = require(scope, id);
        int limit = page.limit();
        Integer before;
        try {
            before = page.after() == null ? null : Integer.valueOf(page.after());
        } catch (NumberFormatException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        String resourceType = resourceTypes.slugOf(module.resourceTypeId());
        return Page.of(
                versions.page(module.id(), before, limit),
                limit,
                v -> Integer.toString(v.number()),
                v -> versionView(module, resourceType, v));
    }

    @Transactional
    public ModuleVersionView version(OrgScope scope, String id, int number) {
        Module module = require(scope, id);
        ModuleVersion version = versions.find(module.id(), number)
                .orElseThrow(() -> PlatformException.notFound("version " + number + " of module `" + id + "`"));
        return versionView(module, resourceTypes.slugOf(module.resourceTypeId()), version);
    }

    public Optional<UUID> findId(UUID orgId, String slug) {
        return modules.find(orgId, slug).map(Module::id);
    }

    /** The latest version of every module of an organization, as the rules engine needs them. */
    public List<ModuleSpec> specs(UUID orgId) {
        List<ModuleSpec> specs = new ArrayList<>();
        for (Module module : modules.list("orgId", orgId)) {
            ModuleVersion version =
                    versions.find(module.id(), module.latestVersion()).orElseThrow();
            specs.add(ModuleSpecs.of(
                    module.slug(),
                    version.number(),
                    resourceTypes.slugOf(module.resourceTypeId()),
                    version.definition()));
        }
        return specs;
    }

    /**
     * A module version as a claim needs it: what its job runs (where its code comes from, and the outputs its
     * code declares, empty when the code was not read), and its secret inputs, opened only when asked for and
     * only for the resolution of a node being dispatched. One read for both.
     */
    public Optional<RunnableVersion> runnable(UUID orgId, String slug, int number) {
        return versions.runRow(orgId, slug, number)
                .map(row -> new RunnableVersion(runOf(row.id()), () -> secrets(row.id(), row.sealedSecretInputs())));
    }

    /**
     * What jobs of a module version run, by version id: versions never change, so it is read and its interface
     * parsed once, not at every claim. Bounded; the code of a large inline module is not kept. Secret inputs
     * are not kept here: they are opened for each run that needs them.
     */
    private final Cache<UUID, ModuleRun> runs =
            Caffeine.newBuilder().maximumSize(256).build();

    private static final int MAX_KEPT_CODE = 64 * 1024;

    private ModuleRun runOf(UUID versionId) {
        ModuleRun known = runs.getIfPresent(versionId);
        if (known != null) {
            return known;
        }
        ModuleRun run = run(versions.findById(versionId));
        String code = run.source().moduleSourceCode();
        if (code == null || code.length() <= MAX_KEPT_CODE) {
            runs.put(versionId, run);
        }
        return run;
    }

    /** A module version read for a claim. */
    public record RunnableVersion(ModuleRun run, Supplier<Map<String, String>> secretInputs) {}

    private ModuleRun run(ModuleVersion v) {
        ModuleDefinition d = v.definition();
        ModuleInterfaceView declared = interfaceOf(v);
        return new ModuleRun(
                new ModuleSource(v.moduleId(), d.moduleSource(), d.moduleSourceCode()),
                declared.checked()
                        ? Optional.of(declared.outputs().stream()
                                .map(ModuleInterfaceView.Output::name)
                                .toList())
                        : Optional.empty());
    }

    /** A module version as a claimed job needs it. */
    public record ModuleRun(ModuleSource source, Optional<List<String>> declaredOutputs) {}

    /** Where a module version's code comes from. */
    public record ModuleSource(UUID moduleId, String moduleSource, String moduleSourceCode) {
        public boolean isInline() {
            return ModuleDefinition.INLINE.equals(moduleSource);
        }
    }

    /** The slug and resource type slug of a module. */
    String[] slugAndType(UUID moduleId) {
        Module module = modules.findById(moduleId);
        return new String[] {module.slug(), resourceTypes.slugOf(module.resourceTypeId())};
    }

    UUID resourceTypeIdOf(UUID moduleId) {
        return modules.findById(moduleId).resourceTypeId();
    }

    public String slugOf(UUID moduleId) {
        return modules.findById(moduleId).slug();
    }

    private ModuleDefinition definition(OrgScope scope, ModuleRequest request) {
        boolean inline = ModuleDefinition.INLINE.equals(request.moduleSource());
        if (inline
                && (request.moduleSourceCode() == null
                        || request.moduleSourceCode().isBlank())) {
            throw PlatformException.invalid("/module_source_code", "is required when module_source is `inline`");
        }
        if (!inline && request.moduleSourceCode() != null) {
            throw PlatformException.invalid("/module_source_code", "is only allowed when module_source is `inline`");
        }
        Map<String, String> mapping =
                request.providerMapping() == null ? Map.of() : new TreeMap<>(request.providerMapping());
        mapping.forEach((name, target) -> {
            String[] parts = target.split("\\.", 2);
            if (!providers.exists(scope.orgId(), parts[0], parts[1])) {
                throw PlatformException.unprocessable(
                        "/provider_mapping/" + name, "provider `" + target + "` does not exist");
            }
        });
        Map<String, ModuleDependency> dependencies =
                request.dependencies() == null ? Map.of() : new TreeMap<>(request.dependencies());
        Map<String, ResourceTypeSpec> dependencyTypes = new TreeMap<>();
        dependencies.forEach((alias, dependency) -> dependencyTypes.put(
                alias,
                resourceTypes
                        .spec(scope.orgId(), dependency.type())
                        .orElseThrow(() -> PlatformException.unprocessable(
                                "/dependencies/" + alias + "/type",
                                "resource type `" + dependency.type() + "` does not exist"))));
        JsonNode inputs = tree(request.moduleInputs());
        TemplateChecks.check(inputs, "module_inputs", Usage.MODULE_INPUT, dependencyTypes);
        if (request.moduleParams() != null) {
            for (String param : new TreeSet<>(request.moduleParams().keySet())) {
                if (inputs.has(param)) {
                    throw PlatformException.invalid(
                            "/module_params/" + param,
                            "is also a module input; a value comes either from the module or from the manifest");
                }
            }
        }
        return new ModuleDefinition(
                request.moduleSource(),
                request.moduleSourceCode(),
                tree(request.moduleParams()),
                inputs,
                tree(mapping),
                tree(dependencies));
    }

    /**
     * The secret inputs of a new version: as given, with {@code ***} keeping an existing value; an
     * update that leaves the field out keeps them all. They may not share a name with inputs or params.
     */
    private Map<String, String> secretInputs(
            ModuleRequest request, ModuleDefinition definition, Map<String, String> existing) {
        Map<String, String> secrets = new TreeMap<>();
        if (request.secretInputs() == null) {
            secrets.putAll(existing);
        } else {
            request.secretInputs().forEach((name, value) -> {
                if (SECRET_KEPT.equals(value)) {
                    if (!existing.containsKey(name)) {
                        throw PlatformException.invalid(
                                "/secret_inputs/" + name, "*** keeps an existing value, but there is none");
                    }
                    secrets.put(name, existing.get(name));
                } else {
                    secrets.put(name, value);
                }
            });
        }
        for (String name : secrets.keySet()) {
            if (definition.moduleInputs().has(name) || definition.moduleParams().has(name)) {
                throw PlatformException.invalid(
                        "/secret_inputs/" + name, "is also a module input or param; give it in one place");
            }
        }
        return secrets;
    }

    private byte[] sealSecrets(UUID versionId, Map<String, String> secrets) {
        if (secrets.isEmpty()) {
            return null;
        }
        try {
            return secretBox.seal(json.writeValueAsBytes(secrets), ModuleVersion.secretBinding(versionId));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> secrets(ModuleVersion version) {
        return secrets(version.id(), version.sealedSecretInputs());
    }

    private Map<String, String> secrets(UUID versionId, byte[] sealed) {
        if (sealed == null) {
            return Map.of();
        }
        try {
            return json.readValue(
                    secretBox.open(sealed, ModuleVersion.secretBinding(versionId)),
                    new TypeReference<TreeMap<String, String>>() {});
        } catch (IOException e) {
            throw new IllegalStateException("sealed secret inputs are not a JSON object");
        }
    }

    private Map<String, String> masked(ModuleVersion version) {
        Map<String, String> masked = new TreeMap<>();
        secrets(version).keySet().forEach(name -> masked.put(name, SECRET_KEPT));
        return masked;
    }

    private JsonNode tree(Map<String, ?> value) {
        return json.valueToTree(value == null ? Map.of() : new TreeMap<>(value));
    }

    private ModuleView view(Module module, ModuleVersion version) {
        ModuleDefinition d = version.definition();
        return new ModuleView(
                module.slug(),
                resourceTypes.slugOf(module.resourceTypeId()),
                version.number(),
                d.moduleSource(),
                d.moduleSourceCode(),
                d.moduleParams(),
                d.moduleInputs(),
                d.providerMapping(),
                d.dependencies(),
                masked(version),
                interfaceOf(version),
                module.management().managedBy(),
                module.management().isProtected(),
                module.createdAt(),
                version.createdAt());
    }

    private ModuleVersionView versionView(Module module, String resourceType, ModuleVersion version) {
        ModuleDefinition d = version.definition();
        return new ModuleVersionView(
                module.slug(),
                resourceType,
                version.number(),
                d.moduleSource(),
                d.moduleSourceCode(),
                d.moduleParams(),
                d.moduleInputs(),
                d.providerMapping(),
                d.dependencies(),
                masked(version),
                interfaceOf(version),
                version.createdAt());
    }

    private ModuleInterfaceView interfaceOf(ModuleVersion version) {
        JsonNode stored = version.moduleInterface();
        return stored == null
                ? ModuleInterfaceView.notChecked("saved before modules were checked")
                : json.convertValue(stored, ModuleInterfaceView.class);
    }

    private Module require(OrgScope scope, String id) {
        return modules.find(scope.orgId(), id).orElseThrow(() -> PlatformException.notFound("module `" + id + "`"));
    }
}
