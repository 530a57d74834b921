package dev.polystack.platform.fuzz;

import dev.polystack.platform.testing.PostgresResource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import static dev.polystack.platform.fuzz.Limits.BODY_LIMIT;

final class ParamCases {

    /** A wait or timeout that is either invalid or short: a valid long one would rightly be waited for. */
    static String shortDuration(Gen g) {
        return g.oneOf(
                "0s",
                "0",
                "1ms",
                "10ms",
                "-1s",
                "-1",
                "abc",
                "999999h",
                "1e9",
                "",
                "1.5s",
                "9223372036854775807s",
                "9223372036854775807ms",
                "99999999999999999999s",
                "%00",
                "%20",
                "s",
                "ms",
                "1m",
                "PT1S",
                "0x1s",
                "1s1",
                "301s",
                "300001ms");
    }

    static String queryValue(String name, Gen g) {
        return switch (name) {
            case "limit" ->
                g.oneOf(
                        "-1",
                        "0",
                        "1",
                        "500",
                        "501",
                        "abc",
                        "1e3",
                        "99999999999",
                        "",
                        "%00",
                        "1.5",
                        "+1",
                        "0x10",
                        " 5",
                        "%E2%80%AE1");
            case "page_token" ->
                g.oneOf(
                        "",
                        "garbage",
                        "%%%",
                        "===",
                        "AAAA",
                        Base64.getUrlEncoder().encodeToString(g.string().getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xff}),
                        Base64.getUrlEncoder().encodeToString("x|y".getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder()
                                .encodeToString("2024-01-01T00:00:00Z|not-a-uuid".getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder().encodeToString("|".getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder().encodeToString("-1".getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder().encodeToString("99999999999999999999".getBytes(StandardCharsets.UTF_8)),
                        Base64.getUrlEncoder().encodeToString("\u0000".getBytes(StandardCharsets.UTF_8)),
                        "A".repeat(g.between(100, 3000)),
                        Text.percentEncode(g.string()));
            case "timeout", "wait" -> Text.percentEncode(shortDuration(g));
            case "follow", "force" -> g.oneOf("true", "false", "yes", "1", "", "TRUE", "%00");
            case "from", "to" ->
                g.oneOf(
                        "2024-01-01T00:00:00Z",
                        "2024-13-45T99:99:99Z",
                        "0000-01-01T00:00:00Z",
                        "%2B999999999-12-31T23:59:59Z",
                        "-999999999-01-01T00:00:00Z",
                        "now",
                        "",
                        "1700000000",
                        "2024-01-01",
                        "9999999999-01-01T00:00:00Z");
            default -> g.chance(0.5) ? Text.percentEncode(g.string()) : g.pathSegment();
        };
    }

    static Req withParams(Operation op, Gen g, World w) {
        String path = BodyCases.path(op, g, w, 0.4);
        StringBuilder query = new StringBuilder();
        List<String> names = new ArrayList<>(op.query());
        names.add(g.oneOf("limit", "page_token", "x", "", "%00", "a[b]", "limit"));
        for (String name : names) {
            if (name.equals("wait") || name.equals("timeout")) {
                continue;
            }
            if (g.chance(0.6)) {
                query.append(query.length() == 0 ? "?" : "&").append(Text.percentEncode(name));
                if (!g.chance(0.05)) {
                    query.append('=').append(queryValue(name, g));
                }
            }
        }
        if (op.query().contains("wait") || op.query().contains("timeout")) {
            String name = op.query().contains("wait") ? "wait" : "timeout";
            query.append(query.length() == 0 ? "?" : "&")
                    .append(name)
                    .append('=')
                    .append(Text.percentEncode(shortDuration(g)));
        }
        if (g.chance(0.03)) {
            query.append(g.oneOf("#fragment", "?", "&&&", "?a=1?b=2", "&=", "&%", "&a=%ZZ"));
        }
        Req request = new Req().method(op.method()).target(path + query);
        if (op.path().startsWith("/api/runner/") && g.chance(0.7)) {
            request.bearer(w.runnerJwt);
        } else if (g.chance(0.7)) {
            request.bearer(PostgresResource.ADMIN_TOKEN);
        } else if (g.chance(0.7)) {
            request.header("Authorization", g.authorization());
        }
        return request.note(op.id());
    }

    static void oddHeaders(Req request, Gen g) {
        for (int i = 0, n = g.between(0, 4); i < n; i++) {
            switch (g.pick(9)) {
                case 0 ->
                    request.header(
                            "Accept",
                            g.oneOf(
                                    "application/json",
                                    "*/*",
                                    "text/html",
                                    "application/xml",
                                    "application/problem+json",
                                    "application/json;q=0",
                                    "",
                                    ";;;",
                                    "a/b;q=xyz",
                                    "*/*;q=abc",
                                    "application/*",
                                    "text/*, */*;q=0.1",
                                    "x".repeat(g.between(100, 5000)),
                                    "application/json, " + "text/plain, ".repeat(200),
                                    "\u00e9/\u00e9",
                                    "application/yaml"));
                case 1 ->
                    request.header(
                            "Content-Type",
                            g.oneOf(
                                    "application/json",
                                    "text/plain",
                                    "",
                                    "application/json; charset=nope",
                                    "multipart/form-data",
                                    "application/x-www-form-urlencoded",
                                    "a/b/c",
                                    "application/json; boundary=\"",
                                    "*/*",
                                    "é/é"));
                case 2 ->
                    request.header(
                            "If-Match",
                            g.oneOf(
                                    "\"1\"",
                                    "W/\"1\"",
                                    "*",
                                    "abc",
                                    "\"" + "\"".repeat(g.between(1, 500)),
                                    "\"99999999999999999999\"",
                                    "\"-1\"",
                                    "\"1\", \"2\"",
                                    "W/",
                                    "\"\"",
                                    g.unicode(),
                                    "\"" + g.ascii(30) + "\"",
                                    "1".repeat(5000)));
                case 3 ->
                    request.header(
                            "Idempotency-Key",
                            g.oneOf(
                                    "k",
                                    "x".repeat(200),
                                    "x".repeat(201),
                                    "x".repeat(g.between(1000, 6000)),
                                    g.unicode(),
                                    "\"quoted\"",
                                    "'",
                                    " ",
                                    "",
                                    "a\tb",
                                    g.ascii(50)));
                case 4 ->
                    request.header(
                            "X-Request-Id", g.oneOf("x".repeat(5000), g.unicode(), "a b", "<script>", "", "${jndi:x}"));
                case 5 -> request.header("Authorization", g.authorization());
                case 6 ->
                    request.header(
                            g.oneOf(
                                    "X-Forwarded-For",
                                    "X-Forwarded-Host",
                                    "Forwarded",
                                    "Origin",
                                    "Referer",
                                    "Cookie",
                                    "X-HTTP-Method-Override",
                                    "Accept-Encoding",
                                    "Accept-Charset",
                                    "Accept-Language",
                                    "Range",
                                    "If-None-Match",
                                    "If-Modified-Since",
                                    "Expect",
                                    "TE",
                                    "Upgrade",
                                    "Host"),
                            g.oneOf(
                                    "1.2.3.4",
                                    "evil.example",
                                    "gzip, br, zstd",
                                    "bytes=0-1,5-",
                                    "DELETE",
                                    "100-continue",
                                    "h2c",
                                    "trailers",
                                    "x=" + g.ascii(100),
                                    "Thu, 01 Jan 1970 00:00:00 GMT",
                                    g.unicode(),
                                    "*",
                                    ""));
                case 7 ->
                    request.header(
                            g.oneOf("X-" + g.slug(), "x", "X_Underscore", "Ünïcode", "x-" + "h".repeat(200)),
                            g.string().replace("\r", "").replace("\n", ""));
                default -> request.header("Accept", "application/json");
            }
        }
    }

    static Req random(Gen g, World w) {
        Operation op = g.oneOf(w.operations.stream()
                .filter(o -> !(o.method().equals("DELETE") && o.path().equals("/api/v1/orgs/{org}")))
                .toList());
        if (op.method().equals("DELETE") && g.chance(0.7)) {
            op = g.oneOf(
                    w.operations.stream().filter(o -> o.method().equals("GET")).toList());
        }
        Req request = withParams(op, g, w);
        if (op.method().equals("DELETE")) {
            // odd ids only: deleting the world would make the rest of the run less interesting
            request.target(BodyCases.path(op, g, w, 1.0));
        }
        oddHeaders(request, g);
        if (op.method().equals("POST") || op.method().equals("PUT")) {
            boolean manifest = op.mediaTypes().contains("application/yaml");
            String body = manifest
                    ? "shared:\n  a: { type: thing }\n"
                    : Text.json(op.schema() != null ? BodyCases.fromSchema(op.schema(), "", g, w, 0) : Obj.of());
            if (request.headers.stream().noneMatch(h -> h[0].equals("Content-Type"))) {
                request.header("Content-Type", manifest ? "application/yaml" : "application/json");
            }
            request.body(body);
        }
        return request;
    }

    /** Anything at all: any operation, any method, any parameters, headers and body. */
    static Req anything(Gen g, World w) {
        Operation op = g.oneOf(w.operations);
        Req request = withParams(op, g, w);
        if (op.method().equals("DELETE") || g.chance(0.2)) {
            request.target(BodyCases.path(op, g, w, 1.0));
        }
        request.method(
                g.chance(0.8)
                        ? (op.method().equals("DELETE") ? "GET" : op.method())
                        : g.oneOf(
                                "GET",
                                "POST",
                                "PUT",
                                "PATCH",
                                "OPTIONS",
                                "TRACE",
                                "FOO",
                                "PROPFIND",
                                "CONNECT",
                                "get"));
        if (request.method.equals("CONNECT")) {
            request.target("127.0.0.1:1");
        }
        oddHeaders(request, g);
        if (!request.method.equals("GET") && g.chance(0.8) || g.chance(0.1)) {
            Object tree = g.chance(0.5) && op.schema() != null
                    ? BodyCases.mutate(BodyCases.fromSchema(op.schema(), "", g, w, 0), g)
                    : g.value(4);
            byte[] body = g.chance(0.7)
                    ? Text.json(tree).getBytes(StandardCharsets.UTF_8)
                    : g.chance(0.5)
                            ? new Text.Yaml(g, true).write(tree).getBytes(StandardCharsets.UTF_8)
                            : BodyCases.damage(Text.json(tree), g);
            if (body.length > BODY_LIMIT && !request.target.startsWith("/api/state/")) {
                request.expectStatus = 413;
            }
            if (request.headers.stream().noneMatch(h -> h[0].equals("Content-Type"))) {
                request.header(
                        "Content-Type",
                        g.oneOf("application/json", "application/yaml", "text/plain", "application/octet-stream"));
            }
            request.body(body);
            request.chunked = g.chance(0.05) && body.length <= BODY_LIMIT;
        }
        return request.note("anything " + op.id());
    }

    static List<Function<Gen, Req>> specials(World w) {
        List<Function<Gen, Req>> specials = new ArrayList<>();
        String base = "/api/v1/orgs/" + w.jsonOrg;
        for (String query : List.of(
                "limit=-1",
                "limit=0",
                "limit=501",
                "limit=abc",
                "limit=1e3",
                "limit=99999999999",
                "limit=",
                "limit",
                "page_token=garbage",
                "page_token=%00",
                "page_token=" + Base64.getUrlEncoder().encodeToString("\u0000".getBytes(StandardCharsets.UTF_8)),
                "page_token=" + Base64.getUrlEncoder().encodeToString(new byte[] {(byte) 0xff, (byte) 0xfe}),
                "limit=1&limit=abc")) {
            for (String list : List.of(
                    "/projects",
                    "/env-types",
                    "/resource-types",
                    "/providers",
                    "/modules",
                    "/module-rules",
                    "/runners",
                    "/runner-rules",
                    "/members",
                    "/service-users",
                    "/audit-events",
                    "/projects/shop/envs",
                    "/projects/shop/envs/prod/deployments",
                    "/projects/shop/envs/prod/manifests",
                    "/modules/thing-basic/versions",
                    "/service-users/ci/tokens")) {
                specials.add(g -> Req.get(base + list + "?" + query)
                        .bearer(PostgresResource.ADMIN_TOKEN)
                        .note("list"));
            }
            specials.add(g -> Req.get("/api/v1/orgs?" + query)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("orgs"));
            specials.add(g -> Req.get("/api/v1/tokens?" + query)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("tokens"));
        }
        for (String page : List.of(
                "2024-01-01T00:00:00Z|not-a-uuid",
                "not-a-date|" + UUID.randomUUID(),
                "|",
                "x|y|z",
                "-1",
                "abc",
                "99999999999999999999",
                "1e3",
                "\u0000|\u0000",
                "a".repeat(2000),
                "2024-01-01T00:00:00Z|\u0000")) {
            String token =
                    Base64.getUrlEncoder().withoutPadding().encodeToString(page.getBytes(StandardCharsets.UTF_8));
            for (String list : List.of(
                    "/audit-events",
                    "/projects/shop/envs/prod/deployments",
                    "/projects/shop/envs/prod/manifests",
                    "/modules/thing-basic/versions",
                    "/projects",
                    "/module-rules",
                    "/runner-rules",
                    "/members",
                    "/service-users/ci/tokens",
                    "/projects/shop/envs/prod/deployments/" + UUID.randomUUID() + "/logs")) {
                specials.add(g -> Req.get(base + list + "?page_token=" + token)
                        .bearer(PostgresResource.ADMIN_TOKEN)
                        .note("page token"));
            }
        }
        for (String timeout : List.of(
                "999999h", "-1s", "abc", "9223372036854775807s", "9223372036854775807ms", "1e9", "%00", "301s")) {
            specials.add(g -> Req.get(base + "/projects/shop/envs/prod/deployments/" + UUID.randomUUID()
                            + "/wait?timeout=" + timeout)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("timeout"));
            specials.add(g -> new Req()
                    .method("POST")
                    .target("/api/runner/v1/claim?wait=" + timeout)
                    .bearer(w.runnerJwt)
                    .note("wait"));
        }
        for (String filter : List.of(
                "from=2024-13-45",
                "from=%2B999999999-12-31T23:59:59Z",
                "to=-999999999-01-01T00:00:00Z",
                "from=now",
                "actor=%00",
                "action=" + "a".repeat(3000),
                "target=%25",
                "target=_",
                "target=%5C",
                "from=9999999999-01-01T00:00:00Z")) {
            specials.add(g -> Req.get(base + "/audit-events?" + filter)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("audit filter"));
        }
        for (String explain : List.of(
                "",
                "type=thing",
                "id=shared.a",
                "type=thing&id=%00",
                "type=%00&id=x",
                "type=thing&id=" + "a".repeat(3000),
                "type=THING&id=X&class=%E2%80%AE",
                "type=thing&id=..&class=..",
                "type=thing&id=shared.a&class=")) {
            specials.add(g -> Req.get(base + "/projects/shop/envs/prod/explain?" + explain)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("explain"));
        }
        for (String segment : List.of(
                "%2F",
                "..",
                "%2e%2e",
                "%00",
                "%ZZ",
                "%C3%A9",
                "a".repeat(3000),
                "%FF",
                "prod%2F..%2Fprod",
                ";x=y",
                "prod;x=y")) {
            specials.add(g -> Req.get(base + "/projects/shop/envs/" + segment)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("env segment"));
            specials.add(g -> Req.get("/api/v1/orgs/" + segment)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("org segment"));
            specials.add(g -> Req.get(base + "/projects/shop/envs/prod/manifests/" + segment)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("manifest version"));
            specials.add(g -> Req.get(base + "/projects/shop/envs/prod/deployments/" + segment)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("deployment id"));
            specials.add(g -> Req.get("/api/state/v1/" + segment + "/thing/default/x")
                    .header("Authorization", "Basic eDp5")
                    .note("state"));
        }
        for (String version : List.of("-1", "0", "2147483648", "99999999999999999999", "1e3", "abc")) {
            specials.add(g -> Req.get(base + "/modules/thing-basic/versions/" + version)
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .note("module version"));
        }
        for (int i = 0; i < 12; i++) {
            specials.add(g -> {
                Req request = new Req()
                        .method("PUT")
                        .target(base + "/projects/shop")
                        .header("Content-Type", "application/json")
                        .bearer(PostgresResource.ADMIN_TOKEN)
                        .body("{\"name\":\"Shop\"}");
                request.header(
                        "If-Match",
                        g.oneOf(
                                "\"99999999999999999999\"",
                                "W/\"abc\"",
                                "\"\"",
                                "*",
                                "\"1\", \"2\"",
                                g.unicode(),
                                "x".repeat(5000),
                                "\"" + "\\\"".repeat(100) + "\"",
                                "W/",
                                "-1",
                                "\"9223372036854775807\"",
                                "\"-9223372036854775808\""));
                return request.note("If-Match");
            });
            specials.add(g -> {
                Req request = new Req()
                        .method("POST")
                        .target(base + "/projects/shop/envs/prod/deployments")
                        .header("Content-Type", "application/json")
                        .bearer(PostgresResource.ADMIN_TOKEN)
                        .body("{\"mode\":\"dry-run\"}");
                request.header(
                        "Idempotency-Key",
                        g.oneOf(
                                "x".repeat(201),
                                "x".repeat(6000),
                                g.unicode(),
                                "\"q\"",
                                "'",
                                " ",
                                "",
                                "a\tb",
                                "%00",
                                g.ascii(50)));
                return request.note("Idempotency-Key");
            });
        }
        for (int i = 0; i < 40; i++) {
            specials.add(g -> Req.get(g.oneOf(
                            "/api/v1/me",
                            "/api/v1/orgs",
                            base,
                            base + "/projects",
                            "/api/runner/v1/claim",
                            "/api/state/v1/x/y/z/w"))
                    .header("Authorization", g.authorization())
                    .note("authorization"));
        }
        specials.add(g -> Req.get("/api/v1/me")
                .header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN)
                .header("Authorization", "Bearer x")
                .note("two Authorization headers"));
        specials.add(g -> Req.get("/api/v1/me").note("anonymous"));
        for (String host : Arrays.asList(
                null,
                "",
                "ZAP%n%s%n%s%n%s",
                "[::1",
                "a:b:c",
                "h".repeat(300),
                "127.0.0.1:99999",
                "@",
                "ex ample",
                "é.example")) {
            specials.add(g -> Req.get(base + "/projects")
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .header("Host", host)
                    .note("Host " + host));
            specials.add(g -> new Req()
                    .method("POST")
                    .target(base + "/projects")
                    .bearer(PostgresResource.ADMIN_TOKEN)
                    .header("Host", host)
                    .header("Content-Type", "application/json")
                    .body("{\"id\":\"" + g.slug() + "\",\"name\":\"x\"}")
                    .note("Host " + host));
        }
        specials.add(g ->
                Req.get("/api/v1/nope").bearer(PostgresResource.ADMIN_TOKEN).note("unknown endpoint"));
        specials.add(g ->
                Req.get("/api/v1/orgs/").bearer(PostgresResource.ADMIN_TOKEN).note("trailing slash"));
        specials.add(g ->
                Req.get("/api/v1//orgs").bearer(PostgresResource.ADMIN_TOKEN).note("double slash"));
        specials.add(g -> Req.get("/api/v1/./orgs/../orgs")
                .bearer(PostgresResource.ADMIN_TOKEN)
                .note("dots"));
        specials.add(g -> Req.get("/api/v1/orgs?" + "a=b&".repeat(500))
                .bearer(PostgresResource.ADMIN_TOKEN)
                .note("500 parameters"));
        specials.add(g -> new Req()
                .method("PATCH")
                .target(base)
                .bearer(PostgresResource.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .body("{}")
                .note("PATCH"));
        specials.add(g -> new Req()
                .method("FOO")
                .target(base)
                .bearer(PostgresResource.ADMIN_TOKEN)
                .note("unknown method"));
        specials.add(g -> new Req()
                .method("DELETE")
                .target("/api/v1/orgs")
                .bearer(PostgresResource.ADMIN_TOKEN)
                .note("DELETE a collection"));
        return specials;
    }
}
