package io.sandboxfactory.core.retire;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.session.SessionLabels;
import io.sandboxfactory.store.api.SessionRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which sessions a bulk retirement ({@code SandboxFactory.retireAll}) acts on: those of one
 * repository, those carrying every given label, those idle for at least a duration — or any
 * combination, all of which must hold. The seed's "retire all sessions of a work item" is a label
 * selector, "of a project repository" a repository selector. A selector always names something:
 * there is no "every session".
 *
 * @param repository the repository as the sessions were opened with ({@code owner/name}, URL or path)
 * @param labels labels a session must all carry
 * @param idleFor how long a session must have gone unused (no open, command, file operation or touch)
 */
public record SessionSelector(Optional<String> repository, Map<String, String> labels, Optional<Duration> idleFor) {

    public SessionSelector {
        Objects.requireNonNull(repository, "repository");
        labels = SessionLabels.requireValid(Objects.requireNonNullElse(labels, Map.of()));
        Objects.requireNonNull(idleFor, "idleFor").ifPresent(d -> {
            if (d.isNegative() || d.isZero()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Idle time " + DurationFormat.format(d) + " is invalid; it must be positive.");
            }
        });
        if (repository.isEmpty() && labels.isEmpty() && idleFor.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A session selector needs a repository, a label or an idle time;"
                    + " there is no selector for every session.");
        }
    }

    /** The sessions opened on {@code repository}. */
    public static SessionSelector repository(String repository) {
        return new SessionSelector(Optional.of(repository), Map.of(), Optional.empty());
    }

    /** The sessions carrying {@code key=value}. */
    public static SessionSelector label(String key, String value) {
        return new SessionSelector(Optional.empty(), Map.of(key, value), Optional.empty());
    }

    /** The sessions unused for at least {@code idle}. */
    public static SessionSelector idleFor(Duration idle) {
        return new SessionSelector(Optional.empty(), Map.of(), Optional.of(idle));
    }

    /** This selector and {@code other}: a session must match both. */
    public SessionSelector and(SessionSelector other) {
        if (repository.isPresent() && other.repository.isPresent() && !repository.equals(other.repository)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A session selector names one repository; it was given '" + repository.get()
                    + "' and '" + other.repository.get() + "'.");
        }
        Map<String, String> both = new LinkedHashMap<>(labels);
        other.labels.forEach((key, value) -> {
            String mine = both.putIfAbsent(key, value);
            if (mine != null && !mine.equals(value)) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A session selector takes one value per label; it was given " + key + "=" + mine
                        + " and " + key + "=" + value + ".");
            }
        });
        Optional<Duration> idle = idleFor.isPresent() && other.idleFor.isPresent()
                ? Optional.of(idleFor.get().compareTo(other.idleFor.get()) >= 0 ? idleFor.get() : other.idleFor.get())
                : idleFor.or(() -> other.idleFor);
        return new SessionSelector(repository.or(() -> other.repository), both, idle);
    }

    /** Whether the session of {@code record} is selected at {@code now}. */
    public boolean matches(SessionRecord record, Instant now) {
        if (repository.isPresent() && !repository.get().equals(record.definition().repository())) {
            return false;
        }
        Map<String, String> has = record.definition().labels();
        if (!labels.entrySet().stream().allMatch(e -> e.getValue().equals(has.get(e.getKey())))) {
            return false;
        }
        return idleFor.isEmpty() || record.idleFor(idleFor.get(), now);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        repository.ifPresent(r -> s.append("repository ").append(r));
        labels.forEach((k, v) -> s.append(s.isEmpty() ? "" : ", ").append("label ").append(k).append('=').append(v));
        idleFor.ifPresent(d -> s.append(s.isEmpty() ? "" : ", ").append("idle for ").append(DurationFormat.format(d)));
        return s.toString();
    }
}
