package dev.polystack.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApiExceptionTest {

    @Test
    void aProblemShowsItsTitleDetailEveryFieldErrorWithItsLineAndTheRequestId() throws Exception {
        String problem = """
                {"type":"https://polystack.dev/problems/validation","title":"The request is not valid","status":422,
                 "detail":"the manifest has 2 problems","request_id":"r-1",
                 "errors":[{"pointer":"/workloads/app/resources/z/type","path":"workloads.app.resources.z.type","line":5,"detail":"unknown resource type"},
                           {"pointer":"/shared","detail":"must be a map"}]}""";
        ApiException e = new ApiException(422, new ObjectMapper().readTree(problem), problem);
        assertThat(e.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(e.getMessage()).isEqualTo("""
                The request is not valid: the manifest has 2 problems
                  - workloads.app.resources.z.type (line 5): unknown resource type
                  - /shared: must be a map
                  (status 422, request id r-1)""");
    }

    @Test
    void serverErrorsAndRatesAreFailuresNotBadInput() {
        assertThat(new ApiException(500, null, "boom").exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(new ApiException(503, null, "").getMessage()).isEqualTo("the server answered 503");
        assertThat(new ApiException(429, null, "").exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(new ApiException(404, null, "").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void aQuotaProblemNamesTheQuota() throws Exception {
        String problem = "{\"title\":\"A quota of the organization is used up\",\"status\":403,\"detail\":\"d\","
                + "\"quota\":{\"name\":\"projects\",\"limit\":2,\"used\":2}}";
        assertThat(new ApiException(403, new ObjectMapper().readTree(problem), problem).getMessage())
                .contains("quota projects: limit 2, used 2");
    }
}
