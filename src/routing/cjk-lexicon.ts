/**
 * A small bilingual lexicon of the words requests to tools are made of — actions (search, book,
 * cancel, send), things (weather, file, flight, invoice), measures (area, average) — in Japanese and
 * Chinese, with their English. It lets a request in one language reach a tool described in another
 * without a model: generic vocabulary, not any catalog's names. Each line: English words, then the
 * Japanese and Chinese words that mean them.
 */
const LEXICON = `
weather: 天気 天候 気象 天气 气象
forecast: 予報 予測 预报 预测
temperature: 気温 温度 温度 气温
humidity: 湿度
rain: 雨 降水 降雨 下雨
snow: 雪 降雪
wind: 風 风
celsius: 摂氏 摄氏
fahrenheit: 華氏 华氏
search find: 検索 探す 探し 探して 探せ 見つけ 見つける 調べ 搜索 查找 寻找 找 查 搜
look up: 調べる 照会 查询 查看 查
get retrieve: 取得 取り出 获取 获得 拿到 得到
list: 一覧 リスト 列表 列出 清单
show display: 表示 見せ 显示 展示
create: 作成 作っ 作る 作り 新規 生成 创建 新建 制作
add: 追加 加え 添加 增加 加入
delete remove: 削除 消去 取り除 除去 删除 移除 删掉
update: 更新 変更 修正 更改 修改 变更
edit: 編集 编辑
set configure: 設定 设置 配置 设定
cancel: キャンセル 取消 取り消 撤销 退订
book reserve reservation: 予約 预约 预订 订
buy purchase: 購入 買う 買い 购买 买 下单
sell: 販売 売る 売り 出售 卖
order: 注文 订单 下单
pay payment: 支払 支払い 決済 付款 支付 缴费
price cost: 価格 値段 料金 費用 价格 价钱 费用 多少钱
send: 送信 送る 送っ 送り 发送 发 寄
receive: 受信 受け取 接收 收到
message: メッセージ 消息 信息 短信
email mail: メール 電子メール 邮件 电子邮件 邮箱
call phone: 電話 通話 电话 打电话 通话 呼叫
contact: 連絡先 連絡 联系人 联系
file: ファイル 文件 档案
folder directory: フォルダ ディレクトリ 文件夹 目录
document: 文書 ドキュメント 書類 文档 文件
image picture photo: 画像 写真 イメージ 图片 照片 图像 相片
video: 動画 ビデオ 视频 录像
music song: 音楽 曲 楽曲 歌 ソング 音乐 歌曲
album: アルバム 专辑
artist: アーティスト 歌手 艺术家 歌手
play: 再生 播放 プレイ 玩
movie film: 映画 ムービー 电影 影片
news: ニュース 新闻 资讯
book: 本 書籍 図書 书 书籍 图书
translate translation: 翻訳 訳す 翻译
language: 言語 语言
convert conversion: 変換 換算 转换 换算 兑换
calculate compute: 計算 算出 求め 算 计算 求
number: 数 数字 番号 号码 数字
sum total: 合計 総和 総計 总和 合计 总计
average mean: 平均 平均值 均值
median: 中央値 中位数
standard deviation: 標準偏差 标准差
variance: 分散 方差
probability: 確率 概率 几率
statistics: 統計 统计
area: 面積 面积
volume: 体積 容積 体积 容积
perimeter: 周囲 周长
circle: 円 圆 圆形
triangle: 三角形
square: 正方形 平方
rectangle: 長方形 矩形 长方形
radius: 半径
diameter: 直径
length: 長さ 长度
height: 高さ 高度 身高
width: 幅 宽度
weight: 重さ 体重 重量
distance: 距離 距离
speed velocity: 速度 速さ 速度
time: 時間 時刻 時 时间 时刻
date: 日付 日時 日期
day: 日 天
week: 週 周 星期
month: 月
year: 年
today: 今日 本日 今天
tomorrow: 明日 明天
yesterday: 昨日 昨天
calendar: カレンダー 日历 日程
schedule: スケジュール 予定 日程 安排 计划
event: イベント 催し 活动 事件
meeting: 会議 ミーティング 会议 开会
reminder remind: リマインダー 通知 提醒 提示
alarm: アラーム 目覚まし 闹钟
timer: タイマー 计时器 定时
note: メモ ノート 笔记 备忘录 便签
task todo: タスク 任务 待办
location place: 場所 位置 所在地 地点 位置 地方
address: 住所 アドレス 地址
map: 地図 マップ 地图
route direction: ルート 経路 道順 路线 路径 导航
navigate navigation: ナビ 导航
nearby nearest closest: 近い 近く 最寄り 附近 最近 周边
city: 都市 市 城市
country: 国 国家
population: 人口
capital: 首都 首都
restaurant: レストラン 飲食店 餐厅 饭店 餐馆
food: 食べ物 食品 料理 食物 美食
recipe: レシピ 食谱 菜谱
hotel: ホテル 宿泊 旅館 酒店 宾馆 住宿
flight: フライト 航空便 飛行機 航空券 航班 机票 飞机
train: 電車 列車 鉄道 火车 列车 高铁
bus: バス 公交 巴士 公共汽车
taxi car: タクシー 車 出租车 打车 汽车 车
ticket: チケット 切符 券 票 门票
travel trip: 旅行 旅 旅游 出行 行程
attraction: 観光地 観光 名所 アトラクション 景点 景区
tour: ツアー 游览
rent rental: レンタル 賃貸 借り 租 租赁 出租
house home: 家 住宅 物件 房子 住宅 房屋
apartment: アパート マンション 公寓
stock share: 株 株価 株式 股票 股价 股份
market: 市場 マーケット 市场
currency: 通貨 為替 货币 汇率
exchange rate: 為替レート 汇率
bank account: 銀行 口座 银行 账户
balance: 残高 余额
transaction: 取引 交易
loan: ローン 融資 贷款
interest: 利息 金利 利子 利率 利息
tax: 税 税金 税金 税
invest investment: 投資 投资
insurance: 保険 保险
salary: 給料 給与 工资 薪水
job: 仕事 求人 職 工作 职位 招聘
company: 会社 企業 公司 企业
product: 製品 商品 产品 商品
shop store: 店 ショップ 店舗 商店 店铺
shopping: 買い物 ショッピング 购物
delivery shipping: 配送 配達 発送 配送 快递 物流
package parcel: 荷物 小包 包裹 快递
track tracking: 追跡 跟踪 追踪
status: 状態 ステータス 状況 状态 状况
user: ユーザー 利用者 用户
account: アカウント 账号 帐号 账户
password: パスワード 密码
login: ログイン 登录 登陆
register: 登録 注册 登记
profile: プロフィール 个人资料 档案
review rating: レビュー 評価 口コミ 评价 评分 点评
recommend recommendation: おすすめ 推薦 推奨 推荐 建议
health: 健康 健康
doctor: 医者 医師 医生 大夫
hospital: 病院 医院
medicine drug: 薬 医薬品 药 药品
symptom: 症状 症状
disease: 病気 疾患 疾病 病
exercise fitness workout: 運動 フィットネス トレーニング 运动 健身 锻炼
sleep: 睡眠 睡眠 睡觉
diet nutrition: 食事 栄養 ダイエット 饮食 营养 减肥
calorie: カロリー 卡路里 热量
therapist: セラピスト カウンセラー 治疗师 心理咨询师
psychologist: 心理 心理学者 心理医生
school: 学校 学校
student: 学生 生徒 学生
course: コース 講座 课程
exam test: 試験 テスト 考试 测试
game: ゲーム 游戏
sport: スポーツ 体育 运动
team: チーム 队 团队 球队
player: 選手 プレイヤー 球员 选手 玩家
score: スコア 得点 点数 分数 比分
match: 試合 比赛
league: リーグ 联赛
history: 歴史 履歴 历史 记录
record: 記録 レコード 记录
law legal: 法律 法 法律
case lawsuit: 訴訟 事件 案件 诉讼
patent: 特許 专利
chemical chemistry: 化学 化学
element: 元素 元素
physics: 物理 物理
energy: エネルギー 能源 能量
force: 力 力
gene dna: 遺伝子 基因
cell: 細胞 细胞
species animal: 種 動物 物种 动物
plant: 植物 植物
environment: 環境 环境
pollution air quality: 大気 空気 汚染 空气 污染
water: 水 水
electricity power: 電気 電力 电 电力
light: 明かり 照明 光 灯
device: デバイス 機器 設備 设备 装置
volume sound: 音量 音 音量 声音
temperature setting: 温度設定
turn on: オン 付け 开 打开 开启
turn off: オフ 消し 关 关闭 关掉
open: 開く 開け 打开
close: 閉じる 閉め 关闭
start: 開始 始め スタート 开始 启动
stop: 停止 止め ストップ 停止 暂停
download: ダウンロード 下载
upload: アップロード 上传
share: 共有 シェア 分享 共享
post: 投稿 ポスト 帖子 发布
comment: コメント 评论
follow: フォロー 关注
friend: 友達 友人 朋友 好友
group: グループ 组 群 群组
chat: チャット 聊天
social: ソーシャル 社交
web website: ウェブ サイト ウェブサイト 网站 网页
url link: リンク 链接 网址
code: コード 代码
program: プログラム 程序
data: データ 数据
database: データベース 数据库
table: テーブル 表 表格
chart graph: グラフ チャート 图表
report: レポート 報告 报告
summary summarize: 要約 まとめ 概要 摘要 总结 概括
analyze analysis: 分析 解析 分析
check: 確認 チェック 確かめ 检查 确认 核对
compare: 比較 比べ 比较 对比
predict: 予測 预测
random: ランダム 乱数 随机
generate: 生成 生成
name: 名前 名 名称 名字
age: 年齢 年龄
birthday: 誕生日 生日
gift: ギフト 贈り物 プレゼント 礼物
holiday: 休日 祝日 假期 节日
vacation: 休暇 バケーション 度假
salon hair: 美容院 サロン 美容室 ヘアスタイリスト 美发 理发
dentist: 歯医者 牙医
car: 車 自動車 汽车 车辆
parking: 駐車 駐車場 停车
fuel gas: ガソリン 燃料 汽油 加油
traffic: 交通 渋滞 交通 路况
violation: 違反 违章 违规
license: 免許 ライセンス 驾照 执照 许可证
vehicle: 車両 车辆
license plate: ナンバープレート 车牌
passenger: 乗客 乘客
seat: 座席 席 座位 席位
airport: 空港 机场
station: 駅 车站 站
departure: 出発 出发
arrival: 到着 到达
wait list: キャンセル待ち 候补
return: 返品 返却 退货 归还
refund: 返金 退款
complaint: 苦情 クレーム 投诉
customer: 顾客 客户 顧客 お客様
service: サービス 服务
support: サポート 支持 支援
help: ヘルプ 帮助
question: 質問 问题
answer: 回答 答え 答案 回答
word: 単語 言葉 单词 词
definition meaning: 意味 定義 含义 意思 定义
dictionary: 辞書 字典 词典
text: テキスト 文章 文本 文字
sentence: 文 句子
grammar: 文法 语法
spell: スペル 綴り 拼写
font: フォント 字体
color: 色 カラー 颜色
size: サイズ 大きさ 大小 尺寸
quantity amount: 数量 量 金額 数量 金额
percentage percent: パーセント 割合 百分比 百分之
discount: 割引 セール 折扣 优惠
coupon: クーポン 优惠券
member membership: 会員 メンバー 会员 成员
subscription: サブスクリプション 購読 订阅
emergency: 緊急 紧急
police: 警察 警察
fire: 火事 火灾 火
security: セキュリティ 安全
weather alert: 警報 预警
earthquake: 地震
planet: 惑星 行星
star: 星 恒星
space: 宇宙 太空
moon: 月
sun: 太陽 太阳
cryptocurrency crypto: 暗号資産 仮想通貨 加密货币 数字货币
bitcoin: ビットコイン 比特币
nft: NFT
blockchain: ブロックチェーン 区块链
factorial: 階乗 阶乘
prime: 素数 质数 素数
equation: 方程式 方程
derivative: 微分 导数
integral: 積分 积分
matrix: 行列 矩阵
vector: ベクトル 向量
function: 関数 函数
root: 根 平方根 根
logarithm: 対数 对数
fraction: 分数 分数
greatest common divisor gcd: 最大公約数 最大公约数
least common multiple lcm: 最小公倍数 最小公倍数
fibonacci: フィボナッチ 斐波那契
sequence: 数列 序列
interest compound: 複利 复利
investment return: 利回り 收益 回报
profit: 利益 利润
revenue: 収益 売上 收入 营收
budget: 予算 预算
expense: 経費 支出 费用 开销
invoice: 請求書 インボイス 发票
contract: 契約 合同
lease: 賃貸契約 租约 租赁合同
property real estate: 不動産 物件 房产 房地产
mortgage: 住宅ローン 房贷 抵押
visit: 訪問 訪れ 見学 参观 访问 拜访
appointment: 予約 アポイント 预约
reservation: 予約 预订
guest: ゲスト 客 客人
room: 部屋 ルーム 房间 客房
check in: チェックイン 入住 值机
check out: チェックアウト 退房
wallet: 財布 ウォレット 钱包
transfer: 振込 送金 転送 转账 转移 转接
deposit: 預金 入金 存款
withdraw: 引き出 出金 取款 提现
atm: ATM
card: カード 卡 银行卡
credit: クレジット 信用
point reward: ポイント 特典 リワード 积分 奖励
queue: 待ち 列 排队
volunteer: ボランティア 志愿者
immigration visa: 移民 ビザ 入国 签证 移民
passport: パスポート 护照
government: 政府 行政 政府
permit: 許可 许可
id identity: 身分証 身份证
election vote: 選挙 投票 选举
population census: 国勢調査 人口普查
poem poetry: 詩 诗 诗歌
story: 物語 ストーリー 故事
joke: ジョーク 冗談 笑話 笑话
quote: 名言 引用 名言 语录
horoscope astrology: 星座 占い 占星 运势
tarot: タロット 塔罗
art painting: 芸術 絵画 アート 艺术 绘画 画
museum: 博物館 美術館 博物馆 美术馆
library: 図書館 图书馆
park: 公園 公园
zoo: 動物園 动物园
concert: コンサート ライブ 演唱会 音乐会
theater: 劇場 シアター 剧院 戏剧
sports event: 試合 赛事
resume cv: 履歴書 简历
interview: 面接 インタビュー 面试 采访
employee: 従業員 社員 员工 职员
salary payroll: 給与 工资单
project: プロジェクト 项目
meeting room: 会議室 会议室
participant attendee: 参加者 出席者 参会人员 参与者 与会者
invite invitation: 招待 招く 邀请
join: 参加 加入 参加
mute: ミュート 静音 禁言
screen: 画面 スクリーン 屏幕
record recording: 録音 録画 录音 录像 录制
camera: カメラ 相机 摄像头
battery: バッテリー 電池 电池 电量
network wifi: ネットワーク Wi-Fi 网络 无线
bluetooth: ブルートゥース 蓝牙
brightness: 明るさ 輝度 亮度
mode: モード 模式
clock: 時計 时钟 钟
world clock: 世界時計 世界时钟
time zone: タイムゾーン 時差 时区
countdown: カウントダウン 倒计时
stopwatch: ストップウォッチ 秒表
wallpaper: 壁紙 壁纸
theme: テーマ 主题
notification: 通知 通知
app application: アプリ アプリケーション 应用 软件 程序
install: インストール 安装
version: バージョン 版本
system: システム 系统
server: サーバー 服务器
cloud: クラウド 云
storage: ストレージ 保存 存储
backup: バックアップ 备份
save: 保存 セーブ 保存 存
print: 印刷 プリント 打印
scan: スキャン 扫描
qr code: QRコード 二维码
barcode: バーコード 条形码
password reset: パスワードリセット 重置密码
reading: 読書 阅读 读书
shelf: 本棚 书架
magazine: 雑誌 杂志
newspaper: 新聞 报纸
podcast: ポッドキャスト 播客
radio: ラジオ 电台 广播
tv television: テレビ 电视
channel: チャンネル 频道
episode: エピソード 話 集
series show: シリーズ 番組 节目 剧集
actor actress: 俳優 女優 出演 演员 主演
director: 監督 导演
genre: ジャンル 类型
cartoon animation: アニメ アニメーション カートゥーン 动画 动漫
comedy: コメディ 喜剧
horror: ホラー 恐怖
drama: ドラマ 剧
lyrics: 歌詞 歌词
playlist: プレイリスト 播放列表 歌单
speaker: スピーカー 音箱 扬声器
headphone: ヘッドホン イヤホン 耳机
internship: インターンシップ インターン 实习
command: コマンド 命令 指令
execute run: 実行 执行 运行
process: プロセス 処理 进程 处理
script: スクリプト 脚本
terminal: ターミナル 终端
window: ウィンドウ 窗口
browser: ブラウザ 浏览器
keyboard: キーボード 键盘
mouse click: マウス クリック 鼠标 点击
software: ソフトウェア ソフト 软件
hardware: ハードウェア 硬件
computer: コンピューター パソコン 电脑 计算机
phone smartphone: スマホ スマートフォン 携帯 手机
tablet: タブレット 平板
printer: プリンター 打印机
memory: メモリ メモリー 内存 记忆
cpu: CPU
disk: ディスク 磁盘 硬盘
api: API
json: JSON
query: クエリ クエリー 查询
request: リクエスト 依頼 要求 请求
response: レスポンス 応答 响应 回复
error: エラー 错误 报错
log: ログ 日志
test: テスト 测试
debug: デバッグ 调试
deploy: デプロイ 部署
repository: リポジトリ 仓库
branch: ブランチ 分支
commit: コミット 提交
issue: イシュー 課題 问题
cluster: クラスター 集群
node: ノード 节点
container: コンテナ 容器
instance: インスタンス 实例
image: イメージ 镜像
key: キー 鍵 密钥 键
token: トークン 令牌
session: セッション 会话
cache: キャッシュ 缓存
filter: フィルター フィルタ 絞り込み 筛选 过滤
sort: ソート 並べ替え 並び替え 排序
category classify: カテゴリ カテゴリー 分類 分类 类别
tag label: タグ ラベル 标签
rank ranking: ランキング 順位 排名 排行
trend: トレンド 傾向 趋势
popular: 人気 流行 热门 受欢迎
latest new: 最新 新しい 新 最新
cheap cheapest: 安い 最安 便宜 最便宜
expensive: 高い 高価 贵
free: 無料 タダ 免费
open hours: 営業時間 营业时间
menu: メニュー 菜单
cafe coffee: カフェ コーヒー 咖啡 咖啡馆
bar: バー 酒吧
pizza: ピザ 披萨
sushi: 寿司
beer wine: ビール ワイン 啤酒 葡萄酒
vegetarian vegan: ベジタリアン ビーガン 素食
gluten: グルテン 麸质
allergy: アレルギー 过敏
pharmacy: 薬局 ドラッグストア 药店
gym: ジム 健身房
yoga: ヨガ 瑜伽
running jogging: ランニング ジョギング 跑步 慢跑
bicycle bike: 自転車 バイク 自行车
walk walking: 散歩 歩く 徒歩 步行 散步
hiking: ハイキング 登山 徒步 爬山
camping: キャンプ 露营
beach: ビーチ 海岸 海滩
mountain: 山 山
river lake: 川 湖 河 湖泊
island: 島 岛
temple shrine: 寺 神社 寺庙
castle: 城 城堡
festival: 祭り フェスティバル 节日 节
ticket price: チケット代 票价
seat reservation: 座席予約 订座
cinema theater: 映画館 电影院
stadium: スタジアム 競技場 体育场
soccer football: サッカー フットボール 足球
baseball: 野球 棒球
basketball: バスケットボール バスケ 篮球
tennis: テニス 网球
golf: ゴルフ 高尔夫
olympics: オリンピック 奥运会
champion: チャンピオン 優勝 冠军
tournament: トーナメント 大会 锦标赛
schedule fixture: 日程表 赛程
statistic stats: スタッツ 成績 数据 战绩
chess: チェス 国际象棋
puzzle: パズル 谜题 拼图
quiz trivia: クイズ 雑学 测验 问答
card game: カードゲーム 纸牌
character: キャラクター 人物 角色
anime: アニメ 动漫
manga comic: マンガ 漫画 コミック 漫画
novel: 小説 小说
author writer: 著者 作家 作者 作家
publisher: 出版社 出版社
title: タイトル 題名 标题 题目
chapter: 章 章节
page: ページ 页 页面
paragraph: 段落 段落
essay article: 記事 エッセイ 论文 文章
research paper: 論文 研究 论文 研究
university college: 大学 大学
professor teacher: 教授 先生 教師 老师 教授
lesson class: 授業 レッスン クラス 课 课程
homework: 宿題 作业
grade: 成績 学年 成绩 年级
scholarship: 奨学金 奖学金
degree: 学位 学位
experience: 経験 経歴 经验 经历
education: 教育 学歴 教育 学历
skill: スキル 技能 技能
career: キャリア 職歴 职业
hire recruit: 採用 雇用 招聘 雇佣
freelance: フリーランス 自由职业
customer support: カスタマーサポート 客服
feedback: フィードバック 反馈
survey: アンケート 調査 调查 问卷
vote poll: 投票 世論調査 投票 民意调查
donation: 寄付 捐款 捐赠
charity: チャリティー 慈善
pet: ペット 宠物
dog: 犬 狗
cat: 猫 猫
veterinarian vet: 獣医 兽医
baby child: 赤ちゃん 子供 子ども 婴儿 孩子 儿童
family: 家族 家庭
wedding: 結婚式 婚礼
marriage: 結婚 结婚
divorce: 離婚 离婚
funeral: 葬式 葬礼
birthday party: 誕生日パーティー 生日派对
party: パーティー 派对 聚会
clothes fashion: 服 ファッション 衣服 时尚 服装
shoe: 靴 シューズ 鞋
bag: バッグ 鞄 包
watch: 腕時計 手表
jewelry: ジュエリー 宝石 珠宝
furniture: 家具 家具
appliance: 家電 家电
kitchen: キッチン 台所 厨房
bathroom: 浴室 トイレ 浴室 卫生间
garden: 庭 ガーデン 花园
cleaning: 掃除 クリーニング 清洁 打扫
laundry: 洗濯 ランドリー 洗衣
repair: 修理 修繕 修理 维修
plumber: 配管工 水管工
electrician: 電気工事 电工
moving: 引っ越し 搬家
storage unit: 倉庫 仓库
warehouse: 倉庫 仓库
inventory stock: 在庫 库存
supplier vendor: 仕入先 業者 供应商
shipment: 出荷 发货
logistics: 物流 物流
import export: 輸入 輸出 进口 出口
customs: 税関 海关
tariff: 関税 关税
economy: 経済 经济
inflation: インフレ 通胀 通货膨胀
gdp: GDP
unemployment: 失業 失业
population growth: 人口増加 人口增长
climate: 気候 气候
carbon emission: 炭素 排出 碳排放 排放
solar: 太陽光 ソーラー 太阳能
wind power: 風力 风能 风力
battery electric vehicle: 電気自動車 电动车 电动汽车
recycle: リサイクル 回收
waste garbage: ゴミ 廃棄物 垃圾 废物
disaster: 災害 灾害
flood: 洪水 洪水
typhoon hurricane: 台風 ハリケーン 台风 飓风
volcano: 火山 火山
tsunami: 津波 海啸
`;

let table: Map<string, string[]> | undefined;
let longest: Map<string, number> | undefined;

/** The longest entry that starts with `first`; 0 when none does (most characters: no slicing then). */
export function longestEntryFrom(first: string): number {
  if (longest === undefined) {
    longest = new Map();
    for (const key of lexicon().keys()) longest.set(key[0]!, Math.max(longest.get(key[0]!) ?? 0, key.length));
  }
  return longest.get(first) ?? 0;
}

/** CJK word → the English words it means (unstemmed). */
export function lexicon(): ReadonlyMap<string, readonly string[]> {
  if (table !== undefined) return table;
  table = new Map();
  for (const line of LEXICON.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const english = line.slice(0, colon).trim().split(/\s+/);
    for (const word of line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)) {
      if (word === '' || /^[\x00-\x7f]+$/.test(word)) continue;
      const key = word.normalize('NFKC').toLowerCase();
      const known = table.get(key);
      table.set(key, known === undefined ? english : [...new Set([...known, ...english])]);
    }
  }
  return table;
}
