package dev.polystack.platform.envtype;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class EnvTypeService {

    @Inject
    EnvTypeRepository envTypes;

    @Inject
    ReferenceGuard references;

    @Inject
    Clock clock;

    @Transactional
    public EnvTypeView create(OrgScope scope, CreateEnvTypeRequest request) {
        if (envTypes.find(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict("environment type `" + request.id() + "` already exists");
        }
        if (request.checks() != null) {
            request.checks().validate("/checks");
        }
        EnvType type = new EnvType(scope.orgId(), request.id(), request.description(), clock.instant());
        type.scheduleChecks(request.checks() == null || request.checks().isEmpty() ? null : request.checks());
        type.reconcile(request.reconcile());
        type.requireApproval(request.approval());
        type.manage(Management.of(request.managedBy(), request.protect()));
        envTypes.persist(type);
        return EnvTypeView.of(type);
    }

    @Transactional
    public Page<EnvTypeView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        return Page.of(envTypes.page(scope.orgId(), page.after(), limit), limit, EnvType::slug, EnvTypeView::of);
    }

    /** The approval settings of an environment type, defaults filled in; null when it has none. */
    public ApprovalPolicy approvalPolicy(UUID orgId, String slug) {
        return envTypes.find(orgId, slug).map(EnvType::approval).orElse(null);
    }

    @Transactional
    public EnvTypeView get(OrgScope scope, String id) {
        return EnvTypeView.of(require(scope, id));
    }

    @Transactional
    public EnvTypeView update(OrgScope scope, String id, UpdateEnvTypeRequest request, Long expectedVersion) {
        EnvType type = require(scope, id);
        Versions.check(expectedVersion, type.version());
        if (request.checks() != null) {
            request.checks().validate("/checks");
        }
        type.describe(request.description(), clock.instant());
        if (request.checks() != null) {
            type.scheduleChecks(request.checks().isEmpty() ? null : request.checks());
        }
        if (request.reconcile() != null) {
            type.reconcile(request.reconcile());
        }
        if (request.approval() != null) {
            type.requireApproval(request.approval());
        }
        type.manage(type.management().with(request.managedBy(), request.protect()));
        envTypes.flush();
        return EnvTypeView.of(type);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        EnvType type = require(scope, id);
        type.management().requireDeletable("environment type `" + id + "`");
        references.requireUnused("env_type", type.id(), "environment type `" + id + "`");
        envTypes.delete(type);
    }

    public Optional<UUID> findId(UUID orgId, String slug) {
        return envTypes.find(orgId, slug).map(EnvType::id);
    }

    public String slugOf(UUID id) {
        return envTypes.findById(id).slug();
    }

    private EnvType require(OrgScope scope, String id) {
        return envTypes.find(scope.orgId(), id)
                .orElseThrow(() -> PlatformException.notFound("environment type `" + id + "`"));
    }
}
