package dev.polystack.platform.common.problem;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * Documents the error shape once: every operation's {@code default} response, and every error
 * response declared without a body, is an RFC 9457 problem ({@code application/problem+json}).
 */
public class ProblemResponsesFilter implements OASFilter {

    private static final String REF = "#/components/schemas/Problem";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents()
                .addSchema(
                        "ProblemFieldError",
                        OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.OBJECT))
                                .properties(
                                        Map.of(
                                                "pointer",
                                                        stringSchema(
                                                                "JSON pointer (or parameter name) of the wrong part"),
                                                "detail", stringSchema("What was wrong with it"),
                                                "path",
                                                        stringSchema(
                                                                "For manifests: the dotted path, e.g. workloads.api.resources.db.type"),
                                                "line",
                                                        OASFactory.createSchema()
                                                                .type(List.of(Schema.SchemaType.INTEGER))
                                                                .description(
                                                                        "For manifests: the line of the manifest it is on, when known"))));
        openAPI.getComponents()
                .addSchema(
                        "Problem",
                        OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.OBJECT))
                                .description("RFC 9457 problem details")
                                .required(List.of("type", "title", "status"))
                                .properties(Map.of(
                                        "type", stringSchema("URI of the problem type"),
                                        "title", stringSchema("Short summary of the problem type"),
                                        "status", OASFactory.createSchema().type(List.of(Schema.SchemaType.INTEGER)),
                                        "detail",
                                                stringSchema("What went wrong in this case, naming the field or path"),
                                        "instance", stringSchema("The request path"),
                                        "request_id", stringSchema("Correlates the answer with the server's log"),
                                        "errors",
                                                OASFactory.createSchema()
                                                        .type(List.of(Schema.SchemaType.ARRAY))
                                                        .items(OASFactory.createSchema()
                                                                .ref("#/components/schemas/ProblemFieldError")))));
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths()
                .getPathItems()
                .values()
                .forEach(item -> item.getOperations().values().forEach(this::addDefault));
    }

    private void addDefault(Operation operation) {
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        operation
                .getResponses()
                .setDefaultValue(OASFactory.createAPIResponse()
                        .description("An error, as RFC 9457 problem details")
                        .content(problemContent()));
        // error responses declared elsewhere (e.g. 400 by the validator) carry the same body
        if (operation.getResponses().getAPIResponses() != null) {
            operation.getResponses().getAPIResponses().forEach((code, response) -> {
                if ((code.startsWith("4") || code.startsWith("5")) && response.getContent() == null) {
                    response.setContent(problemContent());
                }
            });
        }
    }

    private static Content problemContent() {
        return OASFactory.createContent()
                .addMediaType(
                        ProblemDetail.MEDIA_TYPE,
                        OASFactory.createMediaType()
                                .schema(OASFactory.createSchema().ref(REF)));
    }

    private static Schema stringSchema(String description) {
        return OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING)).description(description);
    }
}
