package dev.polystack.platform.console;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** The console's files come from the web-console module's jar, deep links answer the app. */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ConsoleRoutesTest {

    @Test
    void theRootAndBarePrefixRedirectToTheConsole() {
        given().redirects().follow(false).get("/").then().statusCode(302).header("Location", "/console/");
        given().redirects().follow(false).get("/console").then().statusCode(302).header("Location", "/console/");
    }

    @Test
    void deepLinksAnswerTheAppWithAPolicyAndAssetsAreCachedForGood() {
        String index = given().get("/console/")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .header("Cache-Control", "no-cache")
                .header("Content-Security-Policy", containsString("default-src 'self'"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .body(containsString("<div id=\"root\">"))
                .extract()
                .asString();
        given().get("/console/orgs/acme/projects/shop/envs/prod")
                .then()
                .statusCode(200)
                .body(equalTo(index));

        Matcher script =
                Pattern.compile("src=\"(/console/assets/[^\"]+\\.js)\"").matcher(index);
        assertThat(script.find()).as("index.html references its script bundle").isTrue();
        given().get(script.group(1))
                .then()
                .statusCode(200)
                .contentType(containsString("javascript"))
                .header("Cache-Control", containsString("immutable"));
        RestAssured.get("/console/assets/missing-file.js").then().statusCode(404);
    }
}
