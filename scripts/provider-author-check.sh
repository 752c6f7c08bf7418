#!/usr/bin/env bash
# provider-author-check.sh - build examples/third-party-provider the way a provider author would,
# with the system `mvn` (Debian's maven package) when present, and fail unless the conformance
# kit's cases actually ran and passed.
#
# Why: with Debian's Maven 3.8.7 and no pinned plugins, surefire 2.12.4 ran zero JUnit 5 tests and
# the build said SUCCESS. The example inherits factory-provider-parent, which pins surefire 3; this
# script proves that on the Maven authors really have.
#
#   1. packages factory-provider-parent, factory-api, factory-core and factory-tck with ./mvnw;
#   2. places their poms and jars in a temporary local repository (nothing lands in ~/.m2);
#   3. builds a copy of the example with that repository; releases come from the outer Maven
#      cache (read-only, as a file:// repository), so it runs offline when the cache is warm;
#   4. reads the kit's surefire report and asserts at least MIN_CASES cases ran, none failed.
#
# Environment knobs (all optional):
#   MVN           Maven to build the example with  (mvn on PATH, else ./mvnw)
#   MAVEN_CACHE   the outer local repository       (~/.m2/repository)
#   MIN_CASES     fewest kit cases that must run   (30)
#   OFFLINE       non-empty: ./mvnw runs with -o   (set)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$root/factory-provider-parent/pom.xml" | head -1)
cache=${MAVEN_CACHE:-$HOME/.m2/repository}
min_cases=${MIN_CASES:-30}
offline=${OFFLINE-1}
mvn=${MVN:-$(command -v mvn || echo "$root/mvnw")}
# sed, not head: Maven's console crashes when its pipe closes early.
maven_version=$("$mvn" -v 2>/dev/null | sed -n '1s/\x1b\[[0-9;]*m//g;1p')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$root/mvnw" -B -q ${offline:+-o} -f "$root/pom.xml" package -DskipTests -Dmaven.javadoc.skip=true \
    -pl factory-provider-parent,factory-tck -am

place() { # artifact pom [jar]
    local dir="$work/repository/io/sandboxfactory/$1/$version"
    mkdir -p "$dir"
    cp "$2" "$dir/$1-$version.pom"
    if [ $# -gt 2 ]; then cp "$3" "$dir/$1-$version.jar"; fi
}
place sandbox-factory-parent "$root/pom.xml"
place factory-provider-parent "$root/factory-provider-parent/pom.xml"
for module in factory-api factory-core factory-tck; do
    place "$module" "$root/$module/pom.xml" "$root/$module/target/$module-$version.jar"
done

repo="<id>build-cache</id><url>file://$cache</url><releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots>"
cat > "$work/settings.xml" <<XML
<settings><profiles><profile><id>build-cache</id>
<repositories><repository>$repo</repository></repositories>
<pluginRepositories><pluginRepository>$repo</pluginRepository></pluginRepositories>
</profile></profiles><activeProfiles><activeProfile>build-cache</activeProfile></activeProfiles></settings>
XML

mkdir -p "$work/example"
(cd "$root/examples/third-party-provider" && tar --exclude=./target -cf - .) | (cd "$work/example" && tar -xf -)
if ! "$mvn" -B -q -s "$work/settings.xml" -Dmaven.repo.local="$work/repository" -f "$work/example/pom.xml" verify \
        > "$work/build.log" 2>&1; then
    tail -60 "$work/build.log" >&2
    echo "provider-author-check: the example's build with $maven_version failed (log above)." >&2
    exit 1
fi

report="$work/example/target/surefire-reports/TEST-com.example.tmpdir.TmpdirProviderContractTest.xml"
if [ ! -f "$report" ]; then
    echo "provider-author-check: no kit report at $report: the kit did not run, though the build succeeded." >&2
    exit 1
fi
counts=$(grep -o '<testsuite [^>]*>' "$report" | head -1)
attr() { echo "$counts" | sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p"; }
tests=$(attr tests); failures=$(attr failures); errors=$(attr errors)
if [ "${tests:-0}" -lt "$min_cases" ] || [ "${failures:-1}" -ne 0 ] || [ "${errors:-1}" -ne 0 ]; then
    echo "provider-author-check: the kit ran ${tests:-0} cases (at least $min_cases expected), ${failures:-?} failed, ${errors:-?} errors." >&2
    exit 1
fi
echo "provider-author-check: $tests kit cases ran and passed with $maven_version."
