package dev.polystack.platform.fuzz;

import dev.polystack.platform.testing.PostgresResource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/** The random source of one case, with the small vocabulary of hostile values. */
final class Gen {
    final Random r;

    Gen(long seed) {
        r = new Random(seed);
    }

    int pick(int n) {
        return r.nextInt(n);
    }

    int between(int low, int high) {
        return low + r.nextInt(high - low + 1);
    }

    boolean chance(double p) {
        return r.nextDouble() < p;
    }

    @SafeVarargs
    final <T> T oneOf(T... values) {
        return values[r.nextInt(values.length)];
    }

    <T> T oneOf(List<T> values) {
        return values.get(r.nextInt(values.size()));
    }

    String slug() {
        String letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder out = new StringBuilder();
        int n = between(1, 12);
        for (int i = 0; i < n; i++) {
            out.append(letters.charAt(r.nextInt(i == 0 ? 26 : letters.length())));
        }
        return out.toString();
    }

    String ascii(int max) {
        StringBuilder out = new StringBuilder();
        int n = between(0, max);
        for (int i = 0; i < n; i++) {
            out.append((char) between(32, 126));
        }
        return out.toString();
    }

    /** Odd but valid Unicode: accents, scripts, emoji, direction overrides, combining marks, BOMs. */
    String unicode() {
        StringBuilder out = new StringBuilder();
        int n = between(1, 20);
        for (int i = 0; i < n; i++) {
            out.append(oneOf(
                    "é",
                    "ß",
                    "日本",
                    "ä¸­",
                    "🙂",
                    "👨‍👩‍👧",
                    "\u202e",
                    "\u200b",
                    "\u0301",
                    "\uFEFF",
                    "Ω",
                    "ﷺ",
                    "𝕏",
                    "İ",
                    "ı",
                    "\u2028",
                    "\u00a0",
                    "é",
                    "a",
                    "-",
                    "_"));
        }
        return out.toString();
    }

    String control() {
        StringBuilder out = new StringBuilder();
        int n = between(1, 8);
        for (int i = 0; i < n; i++) {
            out.append(
                    oneOf("\u0000", "\u0001", "\b", "\u001b[31m", "\u007f", "\r\n", "\t", "\f", "\u0085", "\r", "\n"));
        }
        return out.toString();
    }

    String placeholder() {
        return oneOf(
                "${resources.db.outputs.host}",
                "${resources.net.outputs.subnet_id}",
                "${shared.net.outputs.subnet_id}",
                "${context.env_id}",
                "${context.res_id}",
                "${context.org_id}",
                "${context.nope}",
                "${resources.db}",
                "${resources.nope.outputs.x}",
                "${",
                "${}",
                "${ }",
                "}",
                "$${resources.db.outputs.host}",
                "$$${context.env_id}",
                "${${context.env_id}}",
                "${resources.${context.env_id}.outputs.x}",
                "${resources..outputs.x}",
                "${resources.db.outputs.host",
                "${resources.db.outputs.}",
                "${resources.db.outputs[0]}",
                "${resources.db.outputs.host}${resources.db.outputs.port}",
                "x-${context.env_id}-y",
                "${\u0000}",
                "${" + "a.".repeat(between(10, 3000)) + "}",
                "${".repeat(between(2, 2000)),
                "${resources.DB.outputs.Host}",
                "${var.name}",
                "${secrets.x}",
                "${env.HOME}",
                "#{7*7}",
                "%{x}",
                "{{ x }}",
                "${7*7}");
    }

    /** A string from the hostile vocabulary. */
    String string() {
        return switch (pick(14)) {
            case 0, 1 -> slug();
            case 2 -> ascii(40);
            case 3 -> unicode();
            case 4 -> control() + slug() + control();
            case 5 -> placeholder();
            case 6 ->
                oneOf(
                        "",
                        " ",
                        "   \t ",
                        "null",
                        "true",
                        "~",
                        "*",
                        "&a",
                        "!!binary",
                        "0",
                        "-1",
                        "1e400",
                        "NaN",
                        "yes",
                        "no",
                        "on",
                        "off",
                        "<<",
                        "---",
                        "...",
                        "#",
                        "%",
                        "'",
                        "\"",
                        "\\",
                        "{",
                        "[",
                        "]",
                        "}");
            case 7 ->
                oneOf(
                        "' or 1=1 --",
                        "\"; drop table organization; --",
                        "'); select pg_sleep(20); --",
                        "../../../etc/passwd",
                        "..%2f..%2f",
                        "%00",
                        "%2e%2e",
                        "<script>alert(1)</script>",
                        "%s%s%n%x",
                        "{0}",
                        "${jndi:ldap://x/y}",
                        "\\u0000",
                        "\\x00",
                        "C:\\con\\aux");
            case 8 -> oneOf("a", "é", "${", "x", " ").repeat(between(100, 5000));
            case 9 ->
                oneOf("production", "thing", "vpc", "default", "shop", "prod", "r1", "ci", "thing-basic", "db", "net");
            case 10 -> slug() + oneOf("-", "_", ".", "..", "/", "%", " ") + slug();
            case 11 -> slug().toUpperCase(Locale.ROOT);
            case 12 -> "x".repeat(between(60, 70));
            default -> unicode() + placeholder();
        };
    }

    Object number() {
        return switch (pick(12)) {
            case 0 -> new Raw(Integer.toString(between(-5, 5)));
            case 1 -> new Raw("-1");
            case 2 ->
                new Raw(oneOf(
                        "2147483648",
                        "-2147483649",
                        "9223372036854775807",
                        "9223372036854775808",
                        "-9223372036854775809"));
            case 3 -> new Raw("9".repeat(between(20, 400)));
            case 4 -> new Raw(oneOf("1e400", "-1e400", "1e-400", "1E+9999999", "4.9e-324"));
            case 5 -> new Raw(oneOf("1.5", "-0.0", "0.1", "3.14159265358979323846264338327950288"));
            case 6 -> new Raw(oneOf("-0", "0"));
            case 7 -> new Raw(Long.toString(r.nextLong()));
            case 8 -> new Raw(Double.toString(r.nextDouble() * 1e6));
            case 9 -> new Raw("1" + "0".repeat(between(1, 30)));
            case 10 -> new Raw("0." + "0".repeat(between(1, 2000)) + "1");
            default -> new Raw(Integer.toString(between(0, 1000)));
        };
    }

    /** A random JSON value: maps, lists and scalars, nested up to {@code depth}. */
    Object value(int depth) {
        int kind = depth <= 0 ? 3 + pick(5) : pick(8);
        return switch (kind) {
            case 0 -> {
                Obj obj = new Obj();
                int n = between(0, 4);
                for (int i = 0; i < n; i++) {
                    obj.put(chance(0.7) ? slug() : string(), value(depth - 1));
                }
                yield obj;
            }
            case 1 -> {
                List<Object> list = new ArrayList<>();
                int n = between(0, 4);
                for (int i = 0; i < n; i++) {
                    list.add(value(depth - 1));
                }
                yield list;
            }
            case 2 -> nested(between(2, 50));
            case 3, 4 -> string();
            case 5 -> number();
            case 6 -> oneOf(Boolean.TRUE, Boolean.FALSE);
            default -> null;
        };
    }

    /** Lists (or maps) nested {@code depth} deep. */
    Object nested(int depth) {
        Object inner = chance(0.5) ? slug() : new ArrayList<>();
        boolean maps = chance(0.5);
        for (int i = 0; i < depth; i++) {
            inner = maps ? Obj.of("a", inner) : new ArrayList<>(List.of(inner));
        }
        return inner;
    }

    /** A path segment that should not be one: encoded slashes, dots, Unicode, nulls, long runs. */
    String pathSegment() {
        return switch (pick(12)) {
            case 0 -> oneOf("%2F", "a%2Fb", "%2f..%2f", "..", ".", "%2e%2e", "%2E", "...", "%5C", "a%5Cb");
            case 1 -> oneOf("%00", "a%00b", "%0A", "%0D%0A", "%7F", "%1B");
            case 2 -> oneOf("%ZZ", "%", "%4", "%G1", "%%", "a%");
            case 3 ->
                oneOf(
                        "%C3%A9",
                        "%F0%9F%99%82", "%E2%80%AE", "%EF%BB%BF", "%C0%AF", "%FF", "%FE%FF", "%ED%A0%80", "%C3");
            case 4 -> "a".repeat(between(64, 3000));
            case 5 ->
                oneOf(
                        "~",
                        "%20",
                        "+",
                        "a;b=c",
                        ";",
                        "*",
                        "{org}",
                        "null",
                        "undefined",
                        "@",
                        "!",
                        "$",
                        "'",
                        "(",
                        ")",
                        ",",
                        "=");
            case 6 -> oneOf("-1", "0", "99999999999999999999", "1e3", "0x1f", "1.5", " 1", "+1", "2147483648");
            case 7 ->
                oneOf(
                        "00000000-0000-0000-0000-000000000000",
                        "not-a-uuid",
                        "ffffffff-ffff-ffff-ffff-ffffffffffff",
                        UUID.randomUUID().toString().toUpperCase(Locale.ROOT),
                        UUID.randomUUID() + "x",
                        "{" + UUID.randomUUID() + "}");
            case 8 -> Text.percentEncode(unicode());
            case 9 -> Text.percentEncode(string());
            case 10 -> slug().toUpperCase(Locale.ROOT);
            default -> slug();
        };
    }

    /** An Authorization header value that is not the admin's. */
    String authorization() {
        return switch (pick(12)) {
            case 0 -> "Bearer ";
            case 1 -> "Bearer " + ascii(60);
            case 2 -> "Bearer pst_" + slug() + slug();
            case 3 -> "Bearer pst_" + "A".repeat(between(40, 8000));
            case 4 ->
                "Basic "
                        + Base64.getEncoder()
                                .encodeToString((string() + ":" + string()).getBytes(StandardCharsets.UTF_8));
            case 5 ->
                oneOf("Basic", "Basic ===", "Digest x", "Negotiate", "bearer", "BEARER x", "Bearer\tx", "Bearer  x");
            case 6 ->
                "Bearer "
                        + Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
                        + "."
                        + Base64.getUrlEncoder()
                                .withoutPadding()
                                .encodeToString("{\"sub\":\"r1\",\"org\":\"x\",\"aud\":\"polystack\"}"
                                        .getBytes(StandardCharsets.UTF_8))
                        + ".";
            case 7 ->
                "Bearer "
                        + oneOf(
                                "a.b.c",
                                "..",
                                "e30.e30.",
                                "eyJ.eyJ.eyJ",
                                "x".repeat(3000) + "." + "y".repeat(3000) + ".z");
            case 8 -> "Bearer " + unicode();
            case 9 -> "Bearer pst_" + PostgresResource.ADMIN_TOKEN.substring(4).toUpperCase(Locale.ROOT);
            case 10 -> "Bearer " + PostgresResource.ADMIN_TOKEN + oneOf("x", " ", "\t", ",", " Bearer x");
            default -> oneOf("", " ", "null", "undefined", "Bearer null") + ascii(10);
        };
    }
}
