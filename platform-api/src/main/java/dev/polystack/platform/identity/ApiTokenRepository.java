package dev.polystack.platform.identity;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
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
    List<ApiToken> page(UUID principalId, String after, int limit) {
        if (after == null) {
            return find("principalId = ?1 order by createdAt desc, id desc", principalId)
                    .page(0, limit + 1)
                    .list();
        }
        String[] key = after.split("\\|", 2);
        Instant createdAt = Instant.parse(key[0]);
        UUID id = UUID.fromString(key[1]);
        return find(
                        "principalId = ?1 and (createdAt < ?2 or (createdAt = ?2 and id < ?3)) order by createdAt desc, id desc",
                        principalId,
                        createdAt,
                        id)
                .page(0, limit + 1)
                .list();
    }

    static String sortKey(ApiToken token) {
        return token.createdAt() + "|" + token.id();
    }
}
