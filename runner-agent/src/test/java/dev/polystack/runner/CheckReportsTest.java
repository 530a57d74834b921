package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.runner.protocol.CheckReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CheckReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static CheckReport fixture(String name) throws Exception {
        return CheckReports.read(TofuJson.read(Fixtures.read(name)));
    }

    @Test
    void aDriftedAttributeIsReportedWithItsValuesAndThePlanThatRevertsIt() throws Exception {
        CheckReport report = fixture("drift_simple.plan.json");

        assertThat(report.drifted()).isTrue();
        assertThat(report.changesPending()).isTrue();
        assertThat(report.drift()).singleElement().satisfies(drift -> {
            assertThat(drift.address()).isEqualTo("tfcoremock_simple_resource.drift");
            assertThat(drift.actions()).containsExactly("update");
            assertThat(drift.attributes()).singleElement().satisfies(attribute -> {
                assertThat(attribute.path()).isEqualTo("string");
                assertThat(attribute.before().asText()).isEqualTo("Hello, world!");
                assertThat(attribute.after().asText()).isEqualTo("Hello, drift!");
            });
        });
        assertThat(report.changes())
                .extracting(CheckReport.ResourceChange::address, CheckReport.ResourceChange::actions)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("tfcoremock_simple_resource.drift", List.of("update")));
    }

    @Test
    void aRefreshOnlyPlanReportsDriftButNoChange() throws Exception {
        CheckReport report = fixture("drift_refresh_only.plan.json");

        assertThat(report.drifted()).isTrue();
        assertThat(report.changesPending()).isFalse();
        assertThat(report.changes()).isEmpty();
        assertThat(report.drift())
                .singleElement()
                .extracting(CheckReport.ResourceDrift::address)
                .isEqualTo("tfcoremock_simple_resource.drift");
    }

    @Test
    void driftThatCascadesNamesTheRelevantAttributesAndEveryChange() throws Exception {
        CheckReport report = fixture("drift_relevant_attributes.plan.json");

        assertThat(report.drift()).singleElement().satisfies(drift -> {
            assertThat(drift.address()).isEqualTo("tfcoremock_simple_resource.base");
            assertThat(drift.attributes())
                    .extracting(CheckReport.AttributeChange::path)
                    .containsExactly("number", "string");
        });
        assertThat(report.changes())
                .extracting(CheckReport.ResourceChange::address)
                .containsExactly("tfcoremock_simple_resource.base", "tfcoremock_simple_resource.dependent");
        assertThat(report.relevantAttributes())
                .containsExactly(new CheckReport.Attribute("tfcoremock_simple_resource.base", "string"));
    }

    @Test
    void aPlanWithoutDriftOrChangesReportsNothing() throws Exception {
        CheckReport report = fixture("empty.show.json");

        assertThat(report.drifted()).isFalse();
        assertThat(report.changesPending()).isFalse();
        assertThat(report.drift()).isEmpty();
    }

    @Test
    void sensitiveValuesNeverLeaveTheRunnerAndReplacesCountAsDestructive() throws Exception {
        JsonNode plan = JSON.readTree("""
                {"format_version": "1.2",
                 "resource_drift": [{"address": "module.main.db.x", "change": {"actions": ["update"],
                   "before": {"password": "old-secret", "tags": {"env": "dev"}, "ports": [1, 2]},
                   "after":  {"password": "new-secret", "tags": {"env": "prod"}, "ports": [1, 3]},
                   "before_sensitive": {"password": true}, "after_sensitive": {"password": true}}}],
                 "resource_changes": [
                   {"address": "module.main.db.x", "action_reason": "replace_because_cannot_update",
                    "change": {"actions": ["delete", "create"]}},
                   {"address": "module.main.db.y", "change": {"actions": ["no-op"]}}]}
                """);

        CheckReport report = CheckReports.read(plan);

        assertThat(report.toString()).doesNotContain("old-secret", "new-secret");
        assertThat(report.drift().get(0).attributes())
                .extracting(CheckReport.AttributeChange::path)
                .containsExactly("password", "ports[1]", "tags.env");
        assertThat(report.drift().get(0).attributes().get(0).before().asText()).isEqualTo(CheckReports.SENSITIVE);
        assertThat(report.changes()).singleElement().satisfies(change -> {
            assertThat(change.actionReason()).isEqualTo("replace_because_cannot_update");
            assertThat(CheckReports.destructive(change.actions())).isTrue();
        });
    }

    @Test
    void relevantAttributePathsReadAsTheyAreWritten() throws Exception {
        assertThat(CheckReports.path(JSON.readTree("[\"rules\", 0, \"port\"]"))).isEqualTo("rules[0].port");
    }
}
