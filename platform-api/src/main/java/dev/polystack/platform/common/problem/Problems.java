package dev.polystack.platform.common.problem;

import com.fasterxml.jackson.databind.JsonMappingException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.persistence.OptimisticLockException;
import jakarta.ws.rs.core.Response;
import org.hibernate.StaleStateException;
import org.hibernate.exception.JDBCConnectionException;

import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Building problem responses and classifying infrastructure failures. */
public final class Problems {

    public static final String REQUEST_ID_HEADER = "X-Request-Id";

    private Problems() {}

    record Classified(ProblemType type, String detail) {}

    public static Response response(
            ProblemType type, String detail, List<ProblemDetail.FieldError> errors, HttpServerRequest request) {
        return response(type, detail, errors, null, request);
    }

    public static Response response(
            ProblemType type,
            String detail,
            List<ProblemDetail.FieldError> errors,
            ProblemDetail.QuotaExceeded quota,
            HttpServerRequest request) {
        ProblemDetail body = new ProblemDetail(
                type.uri(),
                type.title(),
                type.status(),
                detail,
                request == null ? null : request.path(),
                request == null ? null : requestId(request),
                errors,
                quota);
        Response.ResponseBuilder builder =
                Response.status(type.status()).type(ProblemDetail.MEDIA_TYPE).entity(body);
        if (type == ProblemType.UNAVAILABLE) {
            builder.header("Retry-After", "5");
        }
        return builder.build();
    }

    /**
     * Answers with a problem below the REST layer (Vert.x routes: body limit, malformed URIs); the same
     * body as {@link #response}.
     */
    public static void write(RoutingContext context, ProblemType type, String detail) {
        if (context.response().ended() || context.response().headWritten()) {
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.uri().toString());
        body.put("title", type.title());
        body.put("status", type.status());
        body.put("detail", detail);
        body.put("instance", context.request().path());
        body.put("request_id", requestId(context.request()));
        context.response()
                .setStatusCode(type.status())
                .putHeader("Content-Type", ProblemDetail.MEDIA_TYPE)
                .end(Json.encode(body));
    }

    public static String requestId(HttpServerRequest request) {
        String id = request.getHeader(REQUEST_ID_HEADER);
        return id == null ? "unknown" : id;
    }

    /**
     * Recognises failures that are the caller's or the infrastructure's, not bugs: lost updates,
     * duplicate keys, rows still referenced, an unreachable database. Null when it is a bug.
     */
    static Classified classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PlatformException p) {
                return new Classified(p.type(), p.getMessage());
            }
            if (t instanceof OptimisticLockException || t instanceof StaleStateException) {
                return new Classified(
                        ProblemType.STALE_VERSION,
                        "the object was changed by someone else at the same time; read it again and retry");
            }
            if (t instanceof JDBCConnectionException) {
                return unavailable();
            }
            if (t instanceof IllegalArgumentException && thrownWhileReadingMediaType(t)) {
                // a path served by several methods (e.g. JSON and Server-Sent Events) reads the headers itself
                return readsContentType(t)
                        ? new Classified(
                                ProblemType.UNSUPPORTED_MEDIA_TYPE, "the Content-Type header is not a media type")
                        : new Classified(ProblemType.NOT_ACCEPTABLE, "the Accept header is not a list of media types");
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.equals("23505")) {
                    return new Classified(ProblemType.CONFLICT, "an object with the same id already exists");
                }
                if (state.equals("23503")) {
                    return new Classified(ProblemType.IN_USE, "the object is still referenced by other objects");
                }
                // Data exceptions: values PostgreSQL cannot store. Input validation catches them first where it can.
                if (state.equals("22021") || state.equals("22P05")) {
                    return new Classified(ProblemType.VALIDATION, "text must not contain the NUL character (U+0000)");
                }
                if (state.equals("22008")) {
                    return new Classified(
                            ProblemType.VALIDATION, "a timestamp is outside the range that can be stored");
                }
                if (state.equals("22001") || state.equals("22003")) {
                    return new Classified(ProblemType.VALIDATION, "a value is larger than can be stored");
                }
                if (state.equals("40001") || state.equals("40P01")) {
                    return new Classified(ProblemType.CONFLICT, "a concurrent change interfered; retry the request");
                }
                if (state.startsWith("08") || state.equals("57P01") || state.equals("57P03")) {
                    return unavailable();
                }
            }
            // Agroal's answer when every connection of the pool stayed taken for its acquisition timeout: a plain
            // SQLException without a state
            if ((t instanceof SQLException || t.getClass().getName().startsWith("io.agroal"))
                    && String.valueOf(t.getMessage()).contains("acquisition timeout")) {
                return new Classified(
                        ProblemType.UNAVAILABLE,
                        "the service is busy: no database connection became free in time; retry shortly");
            }
        }
        return null;
    }

    private static boolean thrownWhileReadingMediaType(Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        return frames.length > 0
                && frames[0]
                        .getClassName()
                        .startsWith("org.jboss.resteasy.reactive.common.headers.MediaTypeHeaderDelegate");
    }

    private static boolean readsContentType(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getMethodName().equals("contentTypeFromRequest")) {
                return true;
            }
        }
        return false;
    }

    private static Classified unavailable() {
        return new Classified(ProblemType.UNAVAILABLE, "the database is not reachable at the moment; retry shortly");
    }

    public static String pointer(List<JsonMappingException.Reference> path) {
        if (path == null || path.isEmpty()) {
            return "/";
        }
        StringBuilder pointer = new StringBuilder();
        for (JsonMappingException.Reference reference : path) {
            pointer.append('/');
            if (reference.getFieldName() != null) {
                pointer.append(escape(reference.getFieldName()));
            } else {
                pointer.append(reference.getIndex());
            }
        }
        return pointer.toString();
    }

    static String describe(Class<?> type) {
        if (type == String.class || type.isEnum()) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (Map.class.isAssignableFrom(type)
                || type.isRecord()
                || type.getName().startsWith("com.fasterxml.jackson.databind.node.ObjectNode")) {
            return "an object";
        }
        if (type.getName().equals("java.time.Instant")) {
            return "an RFC 3339 timestamp";
        }
        if (type.getName().equals("java.util.UUID")) {
            return "a UUID";
        }
        return "a value of another type";
    }

    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 4);
        for (char c : name.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
