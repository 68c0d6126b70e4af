/** Token kinds of MLIR's textual format. */
export enum TokenKind {
  EOF,
  Error,
  BareIdentifier,
  AtIdentifier,
  HashIdentifier,
  PercentIdentifier,
  CaretIdentifier,
  ExclamationIdentifier,
  Integer,
  Float,
  String,
  Arrow,
  Colon,
  Comma,
  Ellipsis,
  Equal,
  Greater,
  LBrace,
  LParen,
  LSquare,
  Less,
  Minus,
  Plus,
  Question,
  RBrace,
  RParen,
  RSquare,
  Star,
  VerticalBar,
  FileMetadataBegin,
  FileMetadataEnd,
}

/** How a token kind is spelled in diagnostics (`expected ')'`). */
export function tokenSpelling(kind: TokenKind): string {
  switch (kind) {
    case TokenKind.Arrow:
      return '->';
    case TokenKind.Colon:
      return ':';
    case TokenKind.Comma:
      return ',';
    case TokenKind.Ellipsis:
      return '...';
    case TokenKind.Equal:
      return '=';
    case TokenKind.Greater:
      return '>';
    case TokenKind.LBrace:
      return '{';
    case TokenKind.LParen:
      return '(';
    case TokenKind.LSquare:
      return '[';
    case TokenKind.Less:
      return '<';
    case TokenKind.Minus:
      return '-';
    case TokenKind.Plus:
      return '+';
    case TokenKind.Question:
      return '?';
    case TokenKind.RBrace:
      return '}';
    case TokenKind.RParen:
      return ')';
    case TokenKind.RSquare:
      return ']';
    case TokenKind.Star:
      return '*';
    case TokenKind.VerticalBar:
      return '|';
    case TokenKind.FileMetadataBegin:
      return '{-#';
    case TokenKind.FileMetadataEnd:
      return '#-}';
    case TokenKind.EOF:
      return 'end of file';
    default:
      return TokenKind[kind];
  }
}
