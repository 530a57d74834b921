package dev.polystack.platform.testing;

import io.quarkus.hibernate.orm.PersistenceUnitExtension;
import org.hibernate.resource.jdbc.spi.StatementInspector;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The SQL that Hibernate sends, on any thread, while a test listens: what a query built from JPQL really asks
 * PostgreSQL. It changes no statement; when no test listens it only reads a flag.
 */
@PersistenceUnitExtension
public class SentStatements implements StatementInspector {

    private static final List<String> HEARD = new CopyOnWriteArrayList<>();

    private static volatile boolean listening;

    @Override
    public String inspect(String sql) {
        if (listening) {
            HEARD.add(sql);
        }
        return sql;
    }

    /** A statement on one line, its runs of white space one space each: as Hibernate's text breaks lines. */
    public static String oneLine(String sql) {
        return sql.replaceAll("\\s+", " ");
    }

    /** The statements sent while {@code action} ran (by every thread, the application's background work included). */
    public static synchronized List<String> during(Runnable action) {
        HEARD.clear();
        listening = true;
        try {
            action.run();
        } finally {
            listening = false;
        }
        return List.copyOf(HEARD);
    }
}
