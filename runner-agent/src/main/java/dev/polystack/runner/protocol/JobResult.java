package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/** How a job ended, sent to the control plane. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobResult(
        JobStatus status,
        Map<String, Output> outputs,
        List<JsonNode> resources,
        PlanSummary planSummary,
        Error error,
        CheckReport check) {

    public JobResult(
            JobStatus status,
            Map<String, Output> outputs,
            List<JsonNode> resources,
            PlanSummary planSummary,
            Error error) {
        this(status, outputs, resources, planSummary, error, null);
    }

    public record Output(JsonNode value, boolean sensitive) {}

    public record PlanSummary(int add, int change, int destroy) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Error(String summary, String detail) {}

    /** This result cut to the control plane's limits: error texts shortened, resources beyond the limit left out. */
    public JobResult withinLimits() {
        Error cutError = error == null
                ? null
                : new Error(
                        ProtocolLimits.cut(error.summary(), ProtocolLimits.ERROR_SUMMARY),
                        ProtocolLimits.cut(error.detail(), ProtocolLimits.ERROR_DETAIL));
        List<JsonNode> cutResources = resources == null || resources.size() <= ProtocolLimits.RESOURCES
                ? resources
                : resources.subList(0, ProtocolLimits.RESOURCES);
        return new JobResult(status, outputs, cutResources, planSummary, cutError, check);
    }

    public static JobResult failed(String summary, String detail, PlanSummary plan) {
        return new JobResult(JobStatus.FAILED, null, null, plan, new Error(summary, detail));
    }

    public static JobResult cancelled(String why) {
        return new JobResult(JobStatus.CANCELLED, null, null, null, new Error(why, null));
    }
}
