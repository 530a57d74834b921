package dev.polystack.platform.common.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.polystack.platform.security.AuthThrottle;
import io.quarkus.security.AuthenticationCompletionException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The one place where exceptions become RFC 9457 problems. Nothing internal (class names, SQL,
 * stack traces) ever reaches a response; unexpected failures are logged with the request id.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @Inject
    AuthThrottle throttle;

    @ServerExceptionMapper
    public Response platform(PlatformException e, HttpServerRequest request) {
        if (e.type() == ProblemType.UNAUTHENTICATED) {
            Optional<AuthThrottle.Throttled> throttled = throttle.failure(request);
            if (throttled.isPresent()) {
                return tooMany(throttled.get(), request);
            }
        }
        return Problems.response(e.type(), e.getMessage(), e.errors(), e.quota(), request);
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e, HttpServerRequest request) {
        PlatformException invalid = invalid(e.getConstraintViolations());
        return Problems.response(invalid.type(), invalid.getMessage(), invalid.errors(), request);
    }

    /** Bean Validation's violations as one validation problem: a field error per violation, by pointer. */
    public static PlatformException invalid(Collection<? extends ConstraintViolation<?>> violations) {
        List<ProblemDetail.FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<?> violation : violations) {
            errors.add(new ProblemDetail.FieldError(pointer(violation.getPropertyPath()), violation.getMessage()));
        }
        errors.sort(Comparator.comparing(ProblemDetail.FieldError::pointer));
        String detail = errors.stream()
                .map(f -> f.pointer() + ": " + f.detail())
                .reduce((a, b) -> a + "; " + b)
                .orElse("the request is not valid");
        return new PlatformException(ProblemType.VALIDATION, detail, errors);
    }

    @ServerExceptionMapper
    public Response unrecognizedField(UnrecognizedPropertyException e, HttpServerRequest request) {
        String pointer = Problems.pointer(e.getPath());
        return Problems.response(
                ProblemType.VALIDATION,
                pointer + ": unknown field `" + e.getPropertyName() + "`",
                List.of(new ProblemDetail.FieldError(pointer, "unknown field")),
                request);
    }

    @ServerExceptionMapper
    public Response invalidFormat(InvalidFormatException e, HttpServerRequest request) {
        return mismatch(e, request);
    }

    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e, HttpServerRequest request) {
        return mismatch(e, request);
    }

    @ServerExceptionMapper
    public Response valueInstantiation(ValueInstantiationException e, HttpServerRequest request) {
        String pointer = Problems.pointer(e.getPath());
        String reason = e.getCause() != null && e.getCause().getMessage() != null
                ? e.getCause().getMessage()
                : "invalid value";
        return Problems.response(
                ProblemType.VALIDATION,
                pointer + ": " + reason,
                List.of(new ProblemDetail.FieldError(pointer, reason)),
                request);
    }

    @ServerExceptionMapper
    public Response jsonParse(JsonParseException e, HttpServerRequest request) {
        var location = e.getLocation();
        String where =
                location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        String message = String.valueOf(e.getOriginalMessage());
        String what = message.startsWith("Duplicate field") ? ": " + message.replace("Duplicate", "duplicate") : "";
        return Problems.response(
                ProblemType.MALFORMED_BODY, "the body is not well-formed JSON" + where + what, List.of(), request);
    }

    @ServerExceptionMapper
    public Response jsonProcessing(JsonProcessingException e, HttpServerRequest request) {
        if (e instanceof JsonMappingException mapping) {
            return mismatch(mapping, request);
        }
        return Problems.response(ProblemType.MALFORMED_BODY, "the body cannot be read as JSON", List.of(), request);
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e, HttpServerRequest request) {
        return unauthenticated(request);
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e, HttpServerRequest request) {
        return unauthenticated(request);
    }

    @ServerExceptionMapper
    public Response authenticationCompletion(AuthenticationCompletionException e, HttpServerRequest request) {
        return unauthenticated(request);
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, HttpServerRequest request) {
        return Problems.response(ProblemType.FORBIDDEN, "your role does not allow this operation", List.of(), request);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, HttpServerRequest request) {
        int status = e.getResponse().getStatus();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof UnrecognizedPropertyException unrecognized) {
                return unrecognizedField(unrecognized, request);
            }
            if (cause instanceof ValueInstantiationException instantiation) {
                return valueInstantiation(instantiation, request);
            }
            if (cause instanceof JsonParseException parse) {
                return jsonParse(parse, request);
            }
            if (cause instanceof JsonProcessingException processing) {
                return jsonProcessing(processing, request);
            }
        }
        if (status < 400) {
            return e.getResponse();
        }
        ProblemType type = ProblemType.forStatus(status);
        String detail = switch (status) {
            case 404 -> "no such endpoint: " + request.method() + " " + request.path();
            case 405 -> "method " + request.method() + " is not allowed on " + request.path();
            case 406 -> "cannot produce any of the media types in the Accept header";
            case 415 -> "unsupported Content-Type " + request.getHeader("Content-Type");
            case 413 -> "the request body is larger than the limit";
            default -> type.title();
        };
        if (status >= 500) {
            return unexpected(e, request);
        }
        return Problems.response(type, detail, List.of(), request);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, HttpServerRequest request) {
        Problems.Classified classified = Problems.classify(e);
        if (classified != null) {
            return Problems.response(classified.type(), classified.detail(), List.of(), request);
        }
        String requestId = Problems.requestId(request);
        LOG.errorf(e, "Unexpected failure of %s %s (request %s)", request.method(), request.path(), requestId);
        return Problems.response(
                ProblemType.INTERNAL,
                "an unexpected error occurred; quote request id " + requestId + " when reporting it",
                List.of(),
                request);
    }

    private Response unauthenticated(HttpServerRequest request) {
        Optional<AuthThrottle.Throttled> throttled = throttle.failure(request);
        if (throttled.isPresent()) {
            return tooMany(throttled.get(), request);
        }
        Response response = Problems.response(
                ProblemType.UNAUTHENTICATED,
                "send a valid token in the Authorization header: Bearer <token>",
                List.of(),
                request);
        return Response.fromResponse(response)
                .header("WWW-Authenticate", "Bearer")
                .build();
    }

    /** A failed authentication of a client or credential that failed too often: 429 instead of 401. */
    private static Response tooMany(AuthThrottle.Throttled throttled, HttpServerRequest request) {
        Response response = Problems.response(ProblemType.TOO_MANY_REQUESTS, throttled.reason(), List.of(), request);
        return Response.fromResponse(response)
                .header("Retry-After", throttled.retryAfterSeconds(System.currentTimeMillis()))
                .build();
    }

    /** Jackson could not map a type: a bug of ours (mapped here so that it is a problem, and logged). */
    @ServerExceptionMapper
    public Response invalidDefinition(InvalidDefinitionException e, HttpServerRequest request) {
        return unexpected(e, request);
    }

    private static Response mismatch(JsonMappingException e, HttpServerRequest request) {
        if (String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
            return Problems.response(
                    ProblemType.MALFORMED_BODY, "the body has more after its JSON value", List.of(), request);
        }
        String pointer = Problems.pointer(e.getPath());
        String expected = e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                ? "expected " + Problems.describe(mismatch.getTargetType())
                : "invalid value";
        return Problems.response(
                ProblemType.VALIDATION,
                pointer + ": " + expected,
                List.of(new ProblemDetail.FieldError(pointer, expected)),
                request);
    }

    /** Turns a Bean Validation path (method.parameter.field[key].sub) into a JSON pointer or parameter name. */
    static String pointer(Path path) {
        StringBuilder pointer = new StringBuilder();
        String parameter = null;
        boolean body = false;
        for (Path.Node node : path) {
            if (node.getKind() == ElementKind.METHOD) {
                continue;
            }
            if (node.getKind() == ElementKind.PARAMETER) {
                parameter = node.getName();
                continue;
            }
            body = true;
            if (node.getIndex() != null) {
                pointer.append('/').append(node.getIndex());
            } else if (node.getKey() != null) {
                pointer.append('/').append(Problems.escape(String.valueOf(node.getKey())));
            }
            if (node.getName() != null && node.getKind() == ElementKind.PROPERTY) {
                pointer.append('/').append(Problems.snakeCase(node.getName()));
            }
        }
        if (!body) {
            return parameter == null ? "/" : Problems.snakeCase(parameter);
        }
        return pointer.toString();
    }
}
