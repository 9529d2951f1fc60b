"""A small repository in five languages, written by the tests (never a real project's code)."""

from __future__ import annotations

FILES: dict[str, str] = {
    "web/src/handler.ts": """\
export interface Handler {
  handle(path: string): string;
}

/** The root of every service. */
export abstract class BaseService {
  abstract name(): string;

  describe(): string {
    return "service " + this.name();
  }
}
""",
    "web/src/router.ts": """\
import { Handler } from "./handler";

/** Routes requests to handlers. */
export class Router implements Handler {
  private routes: string[] = [];

  handle(path: string): string {
    return parseConfig(path);
  }

  add(route: string): void {
    this.routes.push(route);
  }
}

export function parseConfig(text: string): string {
  return text.trim();
}
""",
    "web/src/server.ts": """\
import { Router, parseConfig } from "./router";
import { BaseService } from "./handler";
import * as http from "http";

export class UserService extends BaseService {
  private router = new Router();

  name(): string {
    return "users";
  }

  list(): string[] {
    return [parseConfig(" a ")];
  }

  get(id: number): string {
    return this.router.handle(String(id));
  }
}

export class AdminService extends UserService {
  name(): string {
    return "admins";
  }
}

export function start(port: number): void {
  http.createServer().listen(port);
}
""",
    "web/src/broken.ts": """\
export class Broken {
  method( {
    return 1;
}
""",
    "geo/shapes/shapes.go": """\
package shapes

// Shape is anything with an area and a perimeter.
type Shape interface {
\tArea() float64
\tPerimeter() float64
}

type Square struct {
\tSide float64
}

type Circle struct {
\tR float64
}

type Segment struct {
\tL float64
}

func (s Square) Area() float64 {
\treturn s.Side * s.Side
}

func (s Square) Perimeter() float64 {
\treturn 4 * s.Side
}

func (l Segment) Area() float64 {
\treturn 0
}

func Total(shapes []Shape) float64 {
\tsum := 0.0
\tfor _, s := range shapes {
\t\tsum += s.Area()
\t}
\treturn sum
}
""",
    "geo/shapes/circle.go": """\
package shapes

import "math"

func (c *Circle) Area() float64 {
\treturn math.Pi * c.R * c.R
}

func (c *Circle) Perimeter() float64 {
\treturn 2 * math.Pi * c.R
}
""",
    "pets/src/lib.rs": """\
pub trait Speak {
    fn speak(&self) -> String;
}

pub struct Dog;

pub struct Cat;

pub struct Rock;

impl Speak for Dog {
    fn speak(&self) -> String {
        String::from("woof")
    }
}

impl Speak for Cat {
    fn speak(&self) -> String {
        String::from("meow")
    }
}

impl Dog {
    pub fn new() -> Self {
        Dog
    }

    pub fn fetch(&self) -> bool {
        true
    }
}
""",
    "repo/src/main/java/com/acme/Repo.java": """\
package com.acme;

import java.util.List;

public interface Repo {
    List<String> findAll();
}
""",
    "repo/src/main/java/com/acme/UserRepo.java": """\
package com.acme;

import java.util.ArrayList;
import java.util.List;

public class UserRepo implements Repo {
    private final List<String> names = new ArrayList<>();

    public UserRepo() {
        names.add("root");
    }

    @Override
    public List<String> findAll() {
        return new ArrayList<>(names);
    }

    public int count() {
        return names.size();
    }
}
""",
    "tools/report.py": """\
def summary(rows):
    return len(rows)
""",
    "README.md": "# Demo\\n\\nFive languages.\\n",
}
