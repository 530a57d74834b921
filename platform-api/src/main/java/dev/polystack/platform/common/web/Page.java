package dev.polystack.platform.common.web;

import java.util.List;
import java.util.function.Function;

/** One page of a list, with the token of the next page when there is one. */
public record Page<T>(List<T> items, String nextPageToken) {

    /**
     * Builds a page from up to {@code limit + 1} rows fetched in sort order: the extra row only tells
     * that another page exists.
     */
    public static <E, T> Page<T> of(List<E> rows, int limit, Function<E, String> sortKey, Function<E, T> view) {
        boolean more = rows.size() > limit;
        List<E> shown = more ? rows.subList(0, limit) : rows;
        String next = more ? PageRequest.tokenFor(sortKey.apply(shown.get(shown.size() - 1))) : null;
        return new Page<>(shown.stream().map(view).toList(), next);
    }
}
