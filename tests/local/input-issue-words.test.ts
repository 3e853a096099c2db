/** The list commands' input errors in plain words, at the place each entry came from (src/local/input-issue-words.ts). */
import { describe, expect, test } from "bun:test";
import { describeIssue, type GivenLists, givenList } from "../../src/local/input-issue-words.ts";

const lists: GivenLists = {
  include: {
    noun: "the address list",
    entries: ["10.0.0.0/8", "10.0.0.256", "x"],
    origins: ["arg 1", "a.txt:7", "a.txt:9"],
  },
  exclude: { noun: "the exclusion list", entries: ["192.0.2.0/24"], origins: ["stdin:1"] },
};

describe("describeIssue", () => {
  test("an entry's issue is said at its place", () => {
    expect(
      describeIssue(
        { message: '"10.0.0.256" is not a valid IPv4 address', path: ["include", 1] },
        lists,
        false,
      ),
    ).toBe('a.txt:7: "10.0.0.256" is not a valid IPv4 address');
  });

  test("schema phrases in plain words, with the server's limit named when a server answered", () => {
    const tooMany = {
      message: '"include": Expected array length to be less or equal to 2.',
      path: ["include"],
    };
    expect(describeIssue(tooMany, lists, false)).toBe(
      "the address list may have at most 2 entries; it has 3",
    );
    expect(describeIssue(tooMany, lists, true)).toBe(
      "the address list may have at most 2 entries; it has 3 (the server's limit; run without --server to use the local limits)",
    );
    expect(
      describeIssue(
        { message: '"include/2": Expected string length greater or equal to 1', path: ["include", 2] },
        lists,
        false,
      ),
    ).toBe("a.txt:9: the entry is empty");
  });

  test("a list named by its body field is named as the user knows it; the first entry gets its place", () => {
    expect(describeIssue({ message: "exclude must not be empty" }, lists, false)).toBe(
      "the exclusion list must not be empty",
    );
    expect(describeIssue({ message: "include and exclude together hold too much" }, lists, false)).toBe(
      "the include and exclude lists together hold too much",
    );
    expect(describeIssue({ message: 'the first entry "10.0.0.0/8" is IPv4' }, lists, false)).toBe(
      'the first entry "10.0.0.0/8" (arg 1) is IPv4',
    );
  });

  test("an operand of diff and common is named by its label and its file", () => {
    const given = givenList({ name: "old.txt", entries: ["10.0.0.0/8"], origins: ["old.txt:1"] }, "list A");
    expect(given.noun).toBe("list A (old.txt)");
    expect(describeIssue({ message: "bad", path: ["a", 0] }, { a: given }, false)).toBe("old.txt:1: bad");
  });
});
