package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Chooses the most specific matching rule. A rule matches when every criterion it sets equals the
 * resource's context; among matches the one setting the most significant criteria wins, compared
 * criterion by criterion in the given order. Two matches setting the same criteria are a tie.
 *
 * <p>Construction does the work that is the same for every resource: rules whose environment criteria
 * cannot match are dropped, and the rest are indexed by the resource's type and (for rules that set it)
 * by a key criterion, so matching a resource looks at a few candidates instead of every rule. Immutable
 * and thread-safe once built.
 */
abstract class Matcher<R> {

    private final String kind;
    private final List<Criterion<R>> criteria;
    private final Function<R, String> ruleId;
    private final Function<R, String> target;
    private final List<R> allRules;
    private final EnvironmentContext environment;
    /** type (or "" for rules of any type) -> key value (or "" for rules without one) -> rules. */
    private final Map<String, Map<String, List<R>>> index = new HashMap<>();

    Matcher(
            String kind,
            List<Criterion<R>> criteria,
            Function<R, String> ruleId,
            Function<R, String> target,
            Function<R, String> typeOf,
            Function<R, String> keyOf,
            Collection<R> rules,
            EnvironmentContext environment) {
        this.kind = kind;
        this.criteria = List.copyOf(criteria);
        this.ruleId = ruleId;
        this.target = target;
        this.allRules = List.copyOf(rules);
        this.environment = environment;
        for (R rule : rules) {
            if (environmentMatches(rule)) {
                index.computeIfAbsent(Objects.requireNonNullElse(typeOf.apply(rule), ""), t -> new HashMap<>())
                        .computeIfAbsent(Objects.requireNonNullElse(keyOf.apply(rule), ""), k -> new ArrayList<>())
                        .add(rule);
            }
        }
    }

    /** The values of environment criteria do not depend on the resource; other criteria return null here. */
    private boolean environmentMatches(R rule) {
        for (Criterion<R> criterion : criteria) {
            String wanted = criterion.ruleValue().apply(rule);
            String actual = criterion.actual().apply(null, environment);
            if (wanted != null && actual != null && !wanted.equals(actual)) {
                return false;
            }
        }
        return true;
    }

    /** The key value of a resource for the index (the resource id for module rules, none for runner rules). */
    abstract String keyOf(ResourceIdentity resource);

    /**
     * The winning rule for a resource.
     *
     * @throws RulesException when no rule matches or two equally specific rules do, naming them
     */
    R match(ResourceIdentity resource, String path) {
        R best = null;
        int bestSpecificity = -1;
        R tied = null;
        for (R rule : candidates(resource)) {
            if (!matches(rule, resource)) {
                continue;
            }
            int specificity = specificity(rule);
            if (specificity > bestSpecificity) {
                best = rule;
                bestSpecificity = specificity;
                tied = null;
            } else if (specificity == bestSpecificity) {
                tied = rule;
            }
        }
        if (best == null) {
            throw new RulesException(
                    path,
                    "no " + kind + " rule matches type `" + resource.type() + "` class `" + resource.resourceClass()
                            + "` id `" + resource.id() + "` in " + environment);
        }
        if (tied != null) {
            throw new RulesException(
                    path,
                    kind + " rules " + ruleId.apply(tied) + " (" + kind + " `" + target.apply(tied)
                            + "`) and " + ruleId.apply(best) + " (" + kind + " `" + target.apply(best)
                            + "`) both match "
                            + resource + " equally specifically; make one of them more specific or delete one");
        }
        return best;
    }

    private List<R> candidates(ResourceIdentity resource) {
        List<R> candidates = new ArrayList<>();
        String key = keyOf(resource);
        for (String type : new String[] {resource.type(), ""}) {
            Map<String, List<R>> byKey = index.get(type);
            if (byKey == null) {
                continue;
            }
            candidates.addAll(byKey.getOrDefault("", List.of()));
            if (key != null && !key.isEmpty()) {
                candidates.addAll(byKey.getOrDefault(key, List.of()));
            }
        }
        return candidates;
    }

    private boolean matches(R rule, ResourceIdentity resource) {
        if (!typeMatches(rule, resource)) {
            return false;
        }
        for (Criterion<R> criterion : criteria) {
            String wanted = criterion.ruleValue().apply(rule);
            if (wanted != null && !wanted.equals(criterion.actual().apply(resource, environment))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the rule applies to resources of this type at all (not a specificity criterion). */
    abstract boolean typeMatches(R rule, ResourceIdentity resource);

    /** Criteria set, as bits: the first criterion is the most significant. */
    private int specificity(R rule) {
        int bits = 0;
        for (Criterion<R> criterion : criteria) {
            bits = (bits << 1) | (criterion.ruleValue().apply(rule) != null ? 1 : 0);
        }
        return bits;
    }

    Explanation explain(ResourceIdentity resource) {
        List<Explanation.Candidate> candidates = new ArrayList<>();
        for (R rule : allRules) {
            List<String> reasons = new ArrayList<>();
            List<String> set = new ArrayList<>();
            boolean sameType = typeMatches(rule, resource);
            boolean matched = sameType;
            if (!sameType) {
                reasons.add("applies to another resource type than `" + resource.type() + "`");
            }
            for (Criterion<R> criterion : criteria) {
                String wanted = criterion.ruleValue().apply(rule);
                if (wanted == null) {
                    continue;
                }
                set.add(criterion.name());
                String actual = criterion.actual().apply(resource, environment);
                boolean equal = wanted.equals(actual);
                matched &= equal;
                reasons.add(criterion.name() + ": " + wanted + (equal ? " = " : " ≠ ") + actual);
            }
            if (set.isEmpty() && matched) {
                reasons.add("sets no criteria: matches everything");
            }
            candidates.add(
                    new Explanation.Candidate(ruleId.apply(rule), target.apply(rule), sameType, matched, reasons, set));
        }
        try {
            R winner = match(resource, "");
            return new Explanation(
                    kind, resource, environment, candidates, ruleId.apply(winner), target.apply(winner), null);
        } catch (RulesException e) {
            return new Explanation(
                    kind,
                    resource,
                    environment,
                    candidates,
                    null,
                    null,
                    e.problems().get(0).message());
        }
    }
}
