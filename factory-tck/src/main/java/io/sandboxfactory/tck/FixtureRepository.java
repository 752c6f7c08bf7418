package io.sandboxfactory.tck;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repository sessions in the kit clone: a bare repository whose {@code main} holds one commit with a README. */
final class FixtureRepository {

    /** What README.md of the fixture holds. */
    static final String README = "tck fixture\n";

    private FixtureRepository() {
    }

    /** Creates the fixture under {@code directory} and returns the bare repository's path. */
    static Path create(Path directory) throws IOException, GitAPIException {
        Path seed = Files.createDirectories(directory.resolve("seed"));
        try (Git git = Git.init().setDirectory(seed.toFile()).setInitialBranch("main").call()) {
            Files.writeString(seed.resolve("README.md"), README);
            git.add().addFilepattern("README.md").call();
            PersonIdent author = new PersonIdent("TCK", "tck@example.invalid");
            git.commit().setMessage("initial").setAuthor(author).setCommitter(author).setSign(false).call();
        }
        Path bare = directory.resolve("app.git");
        Git.cloneRepository().setURI(seed.toUri().toString()).setDirectory(bare.toFile()).setBare(true).call().close();
        return bare;
    }
}
