package dev.polystack.platform.common.sql;

import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlTimesTest {

    private static final Instant MOMENT = Instant.parse("2026-12-07T18:30:15.123456Z");

    @Test
    void everyTypeATimestampIsReadAsIsTheSameInstant() {
        assertThat(SqlTimes.instant(MOMENT)).isEqualTo(MOMENT);
        assertThat(SqlTimes.instant(MOMENT.atOffset(ZoneOffset.ofHours(2)))).isEqualTo(MOMENT);
        assertThat(SqlTimes.instant(Timestamp.from(MOMENT))).isEqualTo(MOMENT);
        assertThat(SqlTimes.instant(null)).isNull();
    }

    @Test
    void aValueThatIsNoTimeIsRefusedByName() {
        assertThatThrownBy(() -> SqlTimes.instant("2026-12-07"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("not a time: java.lang.String");
    }
}
