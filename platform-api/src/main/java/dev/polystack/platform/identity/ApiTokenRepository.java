package dev.polystack.platform.identity;

import dev.polystack.platform.common.web.PageRequest;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ApiTokenRepository implements PanacheRepositoryBase<ApiToken, UUID> {

    Optional<ApiToken> findByHash(byte[] hash) {
        return find("tokenHash", (Object) hash).firstResultOptional();
    }

    Optional<ApiToken> find(UUID principalId, UUID tokenId) {
        return find("principalId = ?1 and id = ?2", principalId, tokenId).firstResultOptional();
    }

    /** Tokens of a principal, newest first; the sort key is "createdAt|id". */
    List<ApiToken> page(UUID principalId, PageRequest.InstantAndId after, int limit) {
        if (after == null) {
            return find("principalId = ?1 order by createdAt desc, id desc", principalId)
                    .page(0, limit + 1)
                    .list();
        }
        return find(
                        "principalId = ?1 and (createdAt, id) < (?2, ?3) order by createdAt desc, id desc",
                        principalId,
                        after.instant(),
                        after.id())
                .page(0, limit + 1)
                .list();
    }

    static String sortKey(ApiToken token) {
        return token.createdAt() + "|" + token.id();
    }
}
