package dev.polystack.platform.common.sql;

import jakarta.persistence.EntityManager;
import org.hibernate.Session;
import org.hibernate.query.NativeQuery;

/**
 * Native queries whose result is one column of a basic type (an identity, a boolean), sent through the session.
 *
 * <p>Hibernate keeps the plan of each native query in a cache of bounded size and finds it again by the statement and
 * its result mapping. Named as the query's result class ({@code createNativeQuery(sql, UUID.class)}), such a type
 * gets a result builder that equals no other: the plan was never found again, each execution added one to the cache,
 * each lookup of that statement compared it with every earlier one, and the plans of other queries were pushed out.
 * A column named with its type ({@code addScalar}) gets a builder that equals the next execution's.
 */
public final class ScalarQueries {

    private ScalarQueries() {}

    /** A query of {@code sql}, whose result is its column {@code column}, of type {@code type}. */
    public static <T> NativeQuery<T> of(EntityManager entityManager, String sql, String column, Class<T> type) {
        @SuppressWarnings("unchecked")
        NativeQuery<T> query =
                (NativeQuery<T>) entityManager.unwrap(Session.class).createNativeQuery(sql);
        return query.addScalar(column, type);
    }
}
