package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatcherTest {

    private static final EnvironmentContext PROD = new EnvironmentContext("acme", "shop", "prod", "production");
    private static final ResourceIdentity DB = new ResourceIdentity("postgres", "ha", "checkout.db");

    private static String nullIfDash(String value) {
        return "-".equals(value) ? null : value;
    }

    /** Two module rules that both match: the one setting the more significant criterion wins. */
    @ParameterizedTest(name = "{0} beats {1}")
    @CsvSource({
        // criteria as resource_id/env_id/env_type_id/project_id/resource_class
        "checkout.db/-/-/-/-, -/prod/-/-/-",
        "-/prod/-/-/-, -/-/production/shop/ha",
        "-/-/production/-/-, -/-/-/shop/ha",
        "-/-/-/shop/-, -/-/-/-/ha",
        "-/-/-/-/ha, -/-/-/-/-",
        "-/-/production/shop/-, -/-/production/-/ha",
        "checkout.db/prod/-/shop/ha, checkout.db/prod/-/shop/-"
    })
    void theMoreSpecificModuleRuleWins(String winner, String loser) {
        ModuleMatchRule a = moduleRule("winner", winner);
        ModuleMatchRule b = moduleRule("loser", loser);
        assertThat(new ModuleMatcher(List.of(a, b), PROD).match(DB, "p").id()).isEqualTo("winner");
        assertThat(new ModuleMatcher(List.of(b, a), PROD).match(DB, "p").id()).isEqualTo("winner");
    }

    private static ModuleMatchRule moduleRule(String id, String criteria) {
        String[] c = criteria.split("/");
        return new ModuleMatchRule(
                id,
                "module-" + id,
                "postgres",
                nullIfDash(c[4]),
                nullIfDash(c[0]),
                nullIfDash(c[3]),
                nullIfDash(c[2]),
                nullIfDash(c[1]));
    }

    @ParameterizedTest(name = "{0} does not match")
    @CsvSource({"other.db/-/-/-/-", "-/staging/-/-/-", "-/-/development/-/-", "-/-/-/blog/-", "-/-/-/-/standard"})
    void aRuleWithOneDifferentCriterionDoesNotMatch(String criteria) {
        ModuleMatcher matcher = new ModuleMatcher(List.of(moduleRule("x", criteria)), PROD);
        assertThatThrownBy(() -> matcher.match(DB, "workloads.checkout.resources.db"))
                .isInstanceOf(RulesException.class)
                .hasMessage(
                        "workloads.checkout.resources.db: no module rule matches type `postgres` class `ha` id `checkout.db` in "
                                + "project `shop`, environment `prod` of type `production`");
    }

    @Test
    void moduleRulesOnlyApplyToTheirModulesResourceType() {
        ModuleMatchRule redis = new ModuleMatchRule("r", "redis-basic", "redis", null, null, null, null, null);
        ModuleMatchRule postgres = new ModuleMatchRule("p", "rds", "postgres", null, null, null, null, null);
        assertThat(new ModuleMatcher(List.of(redis, postgres), PROD)
                        .match(DB, "p")
                        .moduleId())
                .isEqualTo("rds");
    }

    @Test
    void equallySpecificRulesAreATieNamingBoth() {
        ModuleMatchRule a = moduleRule("rule-a", "-/-/production/-/-");
        ModuleMatchRule b = moduleRule("rule-b", "-/-/-/shop/ha");
        ModuleMatchRule c = new ModuleMatchRule("rule-c", "module-c", "postgres", null, null, null, "production", null);
        assertThat(new ModuleMatcher(List.of(a, b), PROD).match(DB, "p").id()).isEqualTo("rule-a");
        assertThatThrownBy(() -> new ModuleMatcher(List.of(a, c), PROD).match(DB, "workloads.checkout.resources.db"))
                .hasMessageContaining(
                        "module rules rule-c (module `module-c`) and rule-a (module `module-rule-a`) both match")
                .hasMessageStartingWith("workloads.checkout.resources.db: ");
    }

    @ParameterizedTest(name = "{0} beats {1}")
    @CsvSource({
        // criteria as env_id/env_type_id/project_id/resource_type/resource_class
        "prod/-/-/-/-, -/production/shop/postgres/ha",
        "-/production/-/-/-, -/-/shop/postgres/ha",
        "-/-/shop/-/-, -/-/-/postgres/ha",
        "-/-/-/postgres/-, -/-/-/-/ha",
        "-/-/-/-/ha, -/-/-/-/-"
    })
    void theMoreSpecificRunnerRuleWins(String winner, String loser) {
        RunnerMatchRule a = runnerRule("winner", winner);
        RunnerMatchRule b = runnerRule("loser", loser);
        assertThat(new RunnerMatcher(List.of(b, a), PROD).match(DB, "p").runnerId())
                .isEqualTo("runner-winner");
    }

    private static RunnerMatchRule runnerRule(String id, String criteria) {
        String[] c = criteria.split("/");
        return new RunnerMatchRule(
                id,
                "runner-" + id,
                nullIfDash(c[2]),
                nullIfDash(c[1]),
                nullIfDash(c[0]),
                nullIfDash(c[3]),
                nullIfDash(c[4]));
    }

    @Test
    void runnerRulesForAnotherResourceTypeDoNotMatch() {
        RunnerMatcher matcher = new RunnerMatcher(List.of(runnerRule("x", "-/-/-/redis/-")), PROD);
        assertThatThrownBy(() -> matcher.match(DB, "p")).hasMessageContaining("no runner rule matches type `postgres`");
    }

    @Test
    void explainListsEveryCandidateWhyAndTheWinner() {
        ModuleMatchRule general = moduleRule("general", "-/-/-/-/-");
        ModuleMatchRule byType = moduleRule("by-type", "-/-/production/-/-");
        ModuleMatchRule staging = moduleRule("staging", "-/staging/-/-/-");
        ModuleMatchRule redis = new ModuleMatchRule("redis", "redis-basic", "redis", null, null, null, null, null);
        Explanation explanation = new ModuleMatcher(List.of(general, byType, staging, redis), PROD).explain(DB);
        assertThat(explanation.winner()).isEqualTo("by-type");
        assertThat(explanation.chosen()).isEqualTo("module-by-type");
        assertThat(explanation.error()).isNull();
        assertThat(explanation.candidates()).hasSize(4);
        assertThat(explanation.candidates().get(0).reasons()).containsExactly("sets no criteria: matches everything");
        assertThat(explanation.candidates().get(1).reasons()).containsExactly("env_type_id: production = production");
        assertThat(explanation.candidates().get(1).specificity()).containsExactly("env_type_id");
        assertThat(explanation.candidates().get(2).matched()).isFalse();
        assertThat(explanation.candidates().get(2).reasons()).containsExactly("env_id: staging ≠ prod");
        assertThat(explanation.candidates().get(3).reasons())
                .containsExactly("applies to another resource type than `postgres`");
        assertThat(explanation.candidates())
                .extracting(Explanation.Candidate::sameType)
                .containsExactly(true, true, true, false);
    }

    @Test
    void explainSaysWhyNothingWasChosen() {
        Explanation explanation = new RunnerMatcher(List.of(), PROD).explain(DB);
        assertThat(explanation.winner()).isNull();
        assertThat(explanation.error()).startsWith("no runner rule matches");
    }

    @Test
    void manyRulesForOtherResourcesStayCheap() {
        List<ModuleMatchRule> rules = new java.util.ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            rules.add(new ModuleMatchRule("r" + i, "m", "postgres", null, "w.r" + i, null, null, null));
        }
        ModuleMatcher matcher = new ModuleMatcher(rules, PROD);
        assertThat(matcher.match(new ResourceIdentity("postgres", "default", "w.r4711"), "p")
                        .id())
                .isEqualTo("r4711");
    }
}
