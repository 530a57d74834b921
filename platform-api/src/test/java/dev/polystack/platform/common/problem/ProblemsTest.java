package dev.polystack.platform.common.problem;

import org.hibernate.exception.GenericJDBCException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** How failures below the API become problems; no Quarkus needed. */
class ProblemsTest {

    @Test
    void aConnectionPoolWithNoConnectionFreeInTimeIsABusyServiceNotAnInternalError() {
        // what Agroal throws when every connection stays taken for the acquisition timeout, as Hibernate wraps it
        Throwable failure = new GenericJDBCException(
                "could not prepare statement", new SQLException("Sorry, acquisition timeout!"));
        Problems.Classified classified = Problems.classify(failure);
        assertThat(classified).isNotNull();
        assertThat(classified.type()).isEqualTo(ProblemType.UNAVAILABLE);
        assertThat(classified.detail()).contains("busy");
    }

    @Test
    void aBugStaysUnclassified() {
        assertThat(Problems.classify(new NullPointerException())).isNull();
        assertThat(Problems.classify(new GenericJDBCException("could not execute", new SQLException("syntax error"))))
                .isNull();
    }
}
