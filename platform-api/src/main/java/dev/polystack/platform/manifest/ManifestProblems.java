package dev.polystack.platform.manifest;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.rules.Problem;
import dev.polystack.rules.RulesException;

import java.util.ArrayList;
import java.util.List;

/** Turns the rules engine's problems into a 422 problem whose errors carry the manifest path and line. */
public final class ManifestProblems {

    private ManifestProblems() {}

    public static PlatformException of(RulesException e, String content) {
        ManifestLines lines = new ManifestLines(content);
        List<ProblemDetail.FieldError> errors = new ArrayList<>();
        for (Problem problem : e.problems()) {
            errors.add(new ProblemDetail.FieldError(
                    null, problem.message(), problem.path(), lines.lineOf(problem.path())));
        }
        String detail = e.problems().size() == 1
                ? "the manifest is not valid: " + e.problems().get(0)
                : "the manifest has " + e.problems().size() + " problems; the first: "
                        + e.problems().get(0);
        return new PlatformException(ProblemType.UNPROCESSABLE, detail, errors);
    }
}
