package dev.polystack.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aTableAlignsItsColumnsAndShowsMissingValuesAsADash() throws Exception {
        var items = JSON.readTree(
                "[{\"id\":\"shop\",\"name\":\"Shop\"},{\"id\":\"checkout-service\",\"nested\":{\"x\":1}}]");
        assertThat(Output.table(items, List.of("id", "name", "nested.x"))).isEqualTo("""
                ID                NAME  NESTED X
                shop              Shop  -
                checkout-service  -     1
                """);
    }

    @Test
    void aColumnWithAnEmptyHeaderAndEmptyCellsStillPrints() throws Exception {
        var items = JSON.readTree("[{\"mark\":\"\",\"id\":\"a\"}]");
        assertThat(Output.table(items, List.of("mark", "id"))).isEqualTo("MARK  ID\n      a\n");
        assertThat(Output.table(JSON.readTree("[]"), List.of("", "id"))).isEqualTo("  ID\n(none)\n");
    }

    @Test
    void yamlAndJsonKeepEveryField() throws Exception {
        var items = JSON.readTree("[{\"id\":\"a\",\"outputs\":{\"host\":\"db\"}}]");
        assertThat(Output.yaml(items)).isEqualTo("- id: a\n  outputs:\n    host: db\n");
        assertThat(JSON.readTree(Output.json(items))).isEqualTo(items);
    }
}
