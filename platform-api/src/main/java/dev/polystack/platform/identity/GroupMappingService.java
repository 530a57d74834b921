package dev.polystack.platform.identity;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Per organization: which OIDC groups make a user a member, and with which role. */
@ApplicationScoped
public class GroupMappingService {

    @Inject
    EntityManager entityManager;

    /** One group and the role it grants. */
    public record GroupMapping(
            @NotBlank @Size(max = 200) String group,
            @NotNull Role role) {}

    /** All mappings of an organization, replaced at once. */
    public record GroupMappings(@NotNull @Size(max = 500) List<@Valid @NotNull GroupMapping> mappings) {}

    @Transactional
    public GroupMappings get(OrgScope scope) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery(
                        "select group_name, role from oidc_group_mapping where org_id = ?1 order by group_name")
                .setParameter(1, scope.orgId())
                .getResultList();
        List<GroupMapping> mappings = new ArrayList<>();
        rows.forEach(row -> mappings.add(new GroupMapping((String) row[0], Role.fromWire((String) row[1]))));
        return new GroupMappings(mappings);
    }

    /** Replaces the mappings; they apply to each user at their next sign-in. */
    @Transactional
    public GroupMappings replace(OrgScope scope, GroupMappings mappings) {
        entityManager
                .createNativeQuery("delete from oidc_group_mapping where org_id = ?1")
                .setParameter(1, scope.orgId())
                .executeUpdate();
        Set<String> seen = new HashSet<>();
        for (GroupMapping mapping : mappings.mappings()) {
            String group = mapping.group().startsWith("/") ? mapping.group().substring(1) : mapping.group();
            if (!seen.add(group)) {
                throw PlatformException.invalid("/mappings", "group `" + group + "` is mapped twice");
            }
            entityManager
                    .createNativeQuery("insert into oidc_group_mapping (org_id, group_name, role) values (?1, ?2, ?3)")
                    .setParameter(1, scope.orgId())
                    .setParameter(2, group)
                    .setParameter(3, mapping.role().wireName())
                    .executeUpdate();
        }
        return get(scope);
    }
}
