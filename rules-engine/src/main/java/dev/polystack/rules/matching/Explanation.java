package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.List;

/**
 * Why a resource gets the module or runner it gets: every candidate rule, whether it matched and why,
 * its specificity, and the outcome.
 *
 * @param kind       {@code module} or {@code runner}
 * @param winner     the id of the winning rule, or null
 * @param chosen     the module or runner the winner names, or null
 * @param error      why nothing was chosen (no match, or a tie), or null
 */
public record Explanation(
        String kind,
        ResourceIdentity resource,
        EnvironmentContext context,
        List<Candidate> candidates,
        String winner,
        String chosen,
        String error) {

    public Explanation {
        candidates = List.copyOf(candidates);
    }

    /**
     * One rule considered.
     *
     * @param target      the module or runner it names
     * @param sameType    whether it applies to the resource's type at all; rules of other types are listed apart
     * @param reasons     one line per criterion it sets, e.g. {@code env_type_id: production = production}
     * @param specificity the criteria it sets, most significant first, e.g. {@code [env_type_id, resource_class]}
     */
    public record Candidate(
            String ruleId,
            String target,
            boolean sameType,
            boolean matched,
            List<String> reasons,
            List<String> specificity) {
        public Candidate {
            reasons = List.copyOf(reasons);
            specificity = List.copyOf(specificity);
        }
    }
}
