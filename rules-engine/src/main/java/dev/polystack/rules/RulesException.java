package dev.polystack.rules;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown with every problem found, never just the first. */
public class RulesException extends RuntimeException {

    private final List<Problem> problems;

    public RulesException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("; ")), null, false, false);
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a RulesException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public RulesException(String path, String message) {
        this(List.of(new Problem(path, message)));
    }

    public List<Problem> problems() {
        return problems;
    }
}
