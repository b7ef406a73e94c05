/** English words too common to tell tools apart (questions and requests are full of them). */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers herself him himself
his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or other our ours
ourselves out over own please same she should so some such than that the their theirs them themselves then there these they
this those through to too under until up very was we were what when where which while who whom why will with would you your
yours yourself yourselves also may might must shall us i'm im i've ive i'd id can't cant don't dont hi hello thanks thank
want wanted need needs like would could tell know help give show let's lets ok okay hey e g eg etc`.split(/\s+/),
);

/** Chinese and Japanese function words, pronouns and politeness that say nothing about the tool. */
export const CJK_STOPWORDS: ReadonlySet<string> = new Set(
  `的 了 吗 呢 吧 啊 我 你 他 她 它 我们 你们 他们 是 在 有 和 与 及 或 也 都 就 还 把 被 给 让 这 那 这个 那个 一个 一下 一些
些 个 能 能不能 可以 可不可以 请 请问 帮 帮我 帮忙 想 想要 要 需要 麻烦 谢谢 好 吧 么 什么 怎么 如何 哪 哪个 哪些 现在 然后 但是 如果
所以 因为 的话 一 下 不 没 没有 很 太 对 从 到 为 于 以 之 其 该 此 等 并 而 又 再 已 已经 会 将 着 过 地 得 所 您 您好 你好
の に は を が で と も へ や か な ね よ から まで より です ます でした ました ください くださ さい して した する します
いる います ある あり あります こと もの ため よう これ それ あれ この その あの ここ そこ 私 僕 ぼく わたし あなた てください
お願い お願いします 願い いただけ いただけます 教え 教えて どう どの 何 なに か? ので けど でも また そして 今 いま ちょっと
たい たいです ほしい 欲しい なる なり られ れる せる させ できる でき ませ ない`.split(/\s+/),
);
