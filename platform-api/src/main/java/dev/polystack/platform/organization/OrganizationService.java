package dev.polystack.platform.organization;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.identity.MemberService;
import dev.polystack.platform.security.Caller;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class OrganizationService {

    /** What an organization may still hold when someone tries to delete it, table by label. */
    private static final Map<String, String> CONTENTS = new LinkedHashMap<>();

    static {
        CONTENTS.put("projects", "project");
        CONTENTS.put("environment types", "env_type");
        CONTENTS.put("resource types", "resource_type");
        CONTENTS.put("providers", "provider");
        CONTENTS.put("modules", "module");
        CONTENTS.put("runners", "runner");
    }

    @Inject
    OrganizationRepository organizations;

    @Inject
    MemberService members;

    @Inject
    EntityManager entityManager;

    @Inject
    Clock clock;

    /** An organization's id by its slug; reads committed data only, so not for an organization this transaction created. */
    public Optional<UUID> findId(String slug) {
        return organizations.idBySlug(slug);
    }

    @Transactional
    /** One organization's slug, by primary key (no query to translate; the session keeps it). */
    public String slugOf(UUID id) {
        Organization organization = organizations.findById(id);
        return organization == null ? null : organization.slug();
    }

    public Map<UUID, String> slugsOf(Collection<UUID> ids) {
        Map<UUID, String> result = new HashMap<>();
        if (!ids.isEmpty()) {
            organizations.list("id in ?1", ids).forEach(o -> result.put(o.id(), o.slug()));
        }
        return result;
    }

    @Transactional
    public OrganizationView create(CreateOrganizationRequest request) {
        if (organizations.findBySlug(request.id()).isPresent()) {
            throw PlatformException.conflict("organization `" + request.id() + "` already exists");
        }
        Organization org = new Organization(request.id(), request.name(), clock.instant());
        organizations.persist(org);
        return OrganizationView.of(org);
    }

    /** Instance administrators see every organization; everyone else the ones they belong to. */
    @Transactional
    public Page<OrganizationView> list(Caller caller, PageRequest page) {
        int limit = page.limit();
        List<Organization> rows;
        if (caller.instanceAdmin()) {
            rows = organizations.page(page.after(), limit);
        } else {
            List<UUID> mine = new ArrayList<>(
                    members.organizationsOf(caller.principalId()).keySet());
            rows = mine.isEmpty() ? List.of() : organizations.pageOf(mine, page.after(), limit);
        }
        return Page.of(rows, limit, Organization::slug, OrganizationView::of);
    }

    @Transactional
    public OrganizationView get(OrgScope scope) {
        return OrganizationView.of(organizations.findById(scope.orgId()));
    }

    @Transactional
    public OrganizationView update(OrgScope scope, UpdateOrganizationRequest request, Long expectedVersion) {
        Organization org = organizations.findById(scope.orgId());
        Versions.check(expectedVersion, org.version());
        org.rename(request.name(), clock.instant());
        organizations.flush();
        return OrganizationView.of(org);
    }

    /** Deletes an empty organization with its memberships and service users. */
    @Transactional
    public void delete(OrgScope scope) {
        List<String> remaining = new ArrayList<>();
        CONTENTS.forEach((label, table) -> {
            Number count = (Number) entityManager
                    .createNativeQuery("select count(*) from " + table + " where org_id = ?1")
                    .setParameter(1, scope.orgId())
                    .getSingleResult();
            if (count.longValue() > 0) {
                remaining.add(count + " " + label);
            }
        });
        if (!remaining.isEmpty()) {
            throw PlatformException.inUse("organization `" + scope.orgSlug() + "` still holds "
                    + String.join(", ", remaining) + "; delete them first");
        }
        for (String statement : List.of(
                "delete from api_token where principal_id in (select id from principal where org_id = ?1)",
                "delete from membership where org_id = ?1",
                "delete from oidc_group_mapping where org_id = ?1",
                "delete from principal where org_id = ?1",
                "delete from organization where id = ?1")) {
            entityManager
                    .createNativeQuery(statement)
                    .setParameter(1, scope.orgId())
                    .executeUpdate();
        }
    }
}
