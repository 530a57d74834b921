package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.OutputSchema;
import dev.polystack.rules.graph.ResourceTypeSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class ResourceTypeService {

    private static final JsonNode ANY_OBJECT =
            JsonNodeFactory.instance.objectNode().put("type", "object");

    @Inject
    ResourceTypeRepository resourceTypes;

    @Inject
    ReferenceGuard references;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Transactional
    public ResourceTypeView create(OrgScope scope, CreateResourceTypeRequest request) {
        JsonNode schema = checkedSchema(request.outputSchema());
        if (resourceTypes.find(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict("resource type `" + request.id() + "` already exists");
        }
        ResourceType type = new ResourceType(scope.orgId(), request.id(), clock.instant());
        type.define(
                request.description(),
                schema,
                request.developerAccessible() == null || request.developerAccessible(),
                clock.instant());
        type.manage(Management.of(request.managedBy(), request.protect()));
        type.reconcile(request.reconcile() == null ? ReconcilePolicy.OBSERVE : request.reconcile());
        resourceTypes.persist(type);
        return ResourceTypeView.of(type);
    }

    @Transactional
    public Page<ResourceTypeView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        return Page.of(
                resourceTypes.page(scope.orgId(), page.after(), limit),
                limit,
                ResourceType::slug,
                ResourceTypeView::of);
    }

    @Transactional
    public ResourceTypeView get(OrgScope scope, String id) {
        return ResourceTypeView.of(require(scope, id));
    }

    @Transactional
    public ResourceTypeView update(OrgScope scope, String id, UpdateResourceTypeRequest request, Long expectedVersion) {
        ResourceType type = require(scope, id);
        Versions.check(expectedVersion, type.version());
        type.manage(type.management().with(request.managedBy(), request.protect()));
        JsonNode schema = checkedSchema(request.outputSchema());
        type.define(
                request.description(),
                schema,
                request.developerAccessible() == null || request.developerAccessible(),
                clock.instant());
        if (request.reconcile() != null) {
            type.reconcile(request.reconcile());
        }
        resourceTypes.flush();
        return ResourceTypeView.of(type);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        ResourceType type = require(scope, id);
        type.management().requireDeletable("resource type `" + id + "`");
        references.requireUnused("resource_type", type.id(), "resource type `" + id + "`");
        resourceTypes.delete(type);
    }

    public Optional<UUID> findId(UUID orgId, String slug) {
        return resourceTypes.find(orgId, slug).map(ResourceType::id);
    }

    public String slugOf(UUID id) {
        return resourceTypes.findById(id).slug();
    }

    /** The resource types of an organization, as the rules engine needs them. */
    public List<ResourceTypeSpec> specs(UUID orgId) {
        return resourceTypes.all(orgId).stream().map(ResourceTypeService::spec).toList();
    }

    /** One resource type of an organization, as the rules engine needs it. */
    public Optional<ResourceTypeSpec> spec(UUID orgId, String slug) {
        return resourceTypes
                .specRow(orgId, slug)
                .map(row -> new ResourceTypeSpec(row.slug(), row.developerAccessible(), schemaOf(row.outputSchema())));
    }

    private static ResourceTypeSpec spec(ResourceType type) {
        return new ResourceTypeSpec(type.slug(), type.developerAccessible(), type.outputSchema());
    }

    /** The output schema of a resource type already read, compiled. */
    public OutputSchema outputSchemaOf(ResourceTypeSpec spec) {
        return compiled(spec.outputSchema());
    }

    /**
     * The output schema of a resource type from its stored text, as the caller read it with its own statement (null:
     * none). By the stored text: the tree need not be written out again to find its compiled schema.
     */
    public Optional<OutputSchema> outputSchemaOf(String stored) {
        return Optional.ofNullable(stored)
                .map(text -> compiledSchemas.get(text, t -> OutputSchema.stored(schemaOf(t))));
    }

    /**
     * Stored output schemas parsed once per text (every claim and result reads its resource type's). The trees
     * are shared: nothing changes a schema read for a run.
     */
    private final Cache<String, JsonNode> parsedSchemas =
            Caffeine.newBuilder().maximumSize(1000).build();

    private JsonNode schemaOf(String text) {
        return parsedSchemas.get(text, stored -> {
            try {
                return json.readTree(stored);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a stored output schema is not JSON", e);
            }
        });
    }

    /**
     * Output schemas compiled once per content: every claim and every result needs its resource type's
     * schema, and checking it against the meta-schema and compiling it each time was a few milliseconds.
     * Keyed by the schema's text, so an edited schema is a new entry.
     */
    private final Cache<String, OutputSchema> compiledSchemas =
            Caffeine.newBuilder().maximumSize(1000).build();

    private OutputSchema compiled(JsonNode schema) {
        return compiledSchemas.get(schema.toString(), key -> OutputSchema.stored(schema));
    }

    private ResourceType require(OrgScope scope, String id) {
        return resourceTypes
                .find(scope.orgId(), id)
                .orElseThrow(() -> PlatformException.notFound("resource type `" + id + "`"));
    }

    private static JsonNode checkedSchema(JsonNode schema) {
        if (schema == null || schema.isNull()) {
            return ANY_OBJECT;
        }
        try {
            OutputSchema.of(schema);
            return schema;
        } catch (OutputSchema.UnusableException e) {
            throw new PlatformException(
                    ProblemType.UNPROCESSABLE,
                    "/output_schema cannot be used to check outputs: " + e.getMessage(),
                    fieldErrors(e));
        } catch (OutputSchema.ValidationException e) {
            throw new PlatformException(
                    ProblemType.VALIDATION,
                    "/output_schema is not a valid JSON Schema: " + e.getMessage(),
                    fieldErrors(e));
        }
    }

    private static List<ProblemDetail.FieldError> fieldErrors(OutputSchema.ValidationException e) {
        return e.violations().stream()
                .map(v -> new ProblemDetail.FieldError("/output_schema" + v.pointer(), v.message()))
                .toList();
    }
}
